import { describe, expect, it } from 'vitest';
import { accessibleSeatsReleased } from './accessible-release.ts';

describe('accessibleSeatsReleased', () => {
  const now = Date.parse('2026-11-27T19:00:00Z');
  const seats = (...free: [string, boolean][]) =>
    free.map(([type, isFree]) => ({ type: type as 'STANDARD' | 'WHEELCHAIR' | 'COMPANION', free: isFree }));
  const open = seats(['STANDARD', true], ['WHEELCHAIR', true], ['COMPANION', true]);

  it('keeps them while another seat is free and the release moment has not come', () => {
    expect(accessibleSeatsReleased('2026-11-27T19:00:01Z', open, now)).toBe(false);
    expect(accessibleSeatsReleased(null, open, now)).toBe(false);
  });

  it('releases them at the release moment', () => {
    expect(accessibleSeatsReleased('2026-11-27T19:00:00Z', open, now)).toBe(true);
    expect(accessibleSeatsReleased(now - 1, open, now)).toBe(true);
  });

  it('releases them once no other seat is free (held, sold or blocked)', () => {
    const full = seats(['STANDARD', false], ['WHEELCHAIR', true], ['COMPANION', false]);
    expect(accessibleSeatsReleased('2026-11-28T19:00:00Z', full, now)).toBe(true);
  });
});
