import { describe, expect, it } from 'vitest';
import { blockedSeats, companionsWithoutWheelchair, halfSofas } from './selection-rules.ts';
import type { RuleSeat } from './types.ts';

const seats: RuleSeat[] = [
  { id: 's1', type: 'SOFA', pairId: 'p1' },
  { id: 's2', type: 'SOFA', pairId: 'p1' },
  { id: 's3', type: 'SOFA', pairId: 'p2' },
  { id: 's4', type: 'SOFA', pairId: 'p2' },
  { id: 'lone', type: 'SOFA' },
  { id: 'w1', type: 'WHEELCHAIR' },
  { id: 'c1', type: 'COMPANION' },
  { id: 'c2', type: 'COMPANION' },
  { id: 'a1', type: 'STANDARD' },
  { id: 'a2', type: 'STANDARD', blocked: true },
  { id: 'a3', type: 'PREMIUM', blocked: false },
];

describe('halfSofas', () => {
  it('passes whole pairs and seats that are not sofas', () => {
    expect(halfSofas(seats, ['s1', 's2', 'a1'])).toEqual([]);
    expect(halfSofas(seats, ['s2', 's1', 's4', 's3'])).toEqual([]);
  });

  it('names a sofa seat asked for without its partner', () => {
    expect(halfSofas(seats, ['s1', 's3', 's4'])).toEqual(['s1']);
    expect(halfSofas(seats, ['s2', 's3'])).toEqual(['s2', 's3']);
  });

  it('counts a partner the customer already holds as part of the pair', () => {
    expect(halfSofas(seats, ['s2'], ['s1'])).toEqual([]);
    expect(halfSofas(seats, ['s2'], ['s3'])).toEqual(['s2']);
  });

  it('names a sofa seat that has no partner at all', () => {
    expect(halfSofas(seats, ['lone'])).toEqual(['lone']);
  });

  it('names each seat once and skips ids that are not in the hall', () => {
    expect(halfSofas(seats, ['s1', 's1', 'nope'])).toEqual(['s1']);
  });
});

describe('companionsWithoutWheelchair', () => {
  it('passes companion seats held with a wheelchair space', () => {
    expect(companionsWithoutWheelchair(seats, ['w1', 'c1'])).toEqual([]);
    expect(companionsWithoutWheelchair(seats, ['c1', 'c2', 'w1'])).toEqual([]);
  });

  it('names every companion seat of a hold without a wheelchair space', () => {
    expect(companionsWithoutWheelchair(seats, ['c2', 'a1', 'c1'])).toEqual(['c2', 'c1']);
  });

  it('passes a hold with no companion seat', () => {
    expect(companionsWithoutWheelchair(seats, ['a1', 'w1'])).toEqual([]);
    expect(companionsWithoutWheelchair(seats, [])).toEqual([]);
  });
});

describe('blockedSeats', () => {
  it('names the blocked seats asked for, in the order asked', () => {
    expect(blockedSeats(seats, ['a3', 'a2', 'a1'])).toEqual(['a2']);
  });

  it('passes seats that are not blocked or not in the hall', () => {
    expect(blockedSeats(seats, ['a1', 'a3', 'elsewhere'])).toEqual([]);
  });
});
