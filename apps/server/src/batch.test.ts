import { describe, expect, it } from 'vitest';
import { batchPerTurn } from './batch.ts';

describe('batchPerTurn', () => {
  it('answers the lookups of one turn with one load, each key asked once', async () => {
    const loads: string[][] = [];
    const lookup = batchPerTurn(async (keys: string[]) => {
      loads.push(keys);
      return new Map(keys.filter((k) => k !== 'nobody').map((k) => [k, k.toUpperCase()]));
    });
    const answers = await Promise.all(['a', 'b', 'a', 'nobody'].map(lookup));
    expect(answers).toEqual(['A', 'B', 'A', undefined]);
    expect(loads).toEqual([['a', 'b', 'nobody']]);

    // A later turn loads again: nothing is remembered between batches.
    expect(await lookup('a')).toBe('A');
    expect(loads).toEqual([['a', 'b', 'nobody'], ['a']]);
  });

  it('loads only after every lookup of the turn was asked, so a change made before the question is seen', async () => {
    let version = 1;
    const lookup = batchPerTurn(async (keys: string[]) => new Map(keys.map((k) => [k, version])));
    const first = lookup('map');
    version = 2; // acknowledged before the second question, in the same turn
    const second = lookup('map');
    expect(await Promise.all([first, second])).toEqual([2, 2]);
  });

  it('fails every lookup of a failed batch, and the next batch is a new try', async () => {
    let fail = true;
    const lookup = batchPerTurn(async (keys: string[]) => {
      if (fail) throw new Error('database unreachable');
      return new Map(keys.map((k) => [k, 1]));
    });
    const results = await Promise.allSettled([lookup('a'), lookup('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await lookup('a')).toBe(1);
  });
});
