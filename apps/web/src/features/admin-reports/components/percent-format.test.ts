import { describe, expect, it } from 'vitest';
import { percentFormat } from './percent-format';

describe('the sales chart’s percent axis', () => {
  it('writes percents in the viewer’s language', () => {
    expect([0, 50, 100].map(percentFormat('en-US', 0))).toEqual(['0%', '50%', '100%']);
    expect(percentFormat('de', 0)(50)).toBe('50\u00a0%');
    expect(percentFormat('de', 1)(62.5)).toBe('62,5\u00a0%');
    expect(percentFormat('es', 1)(62.5)).toBe('62,5\u00a0%');
  });
});
