import { describe, expect, it } from 'vitest';
import { addDays, dayBounds, isoWeekday, localDate, localTime, mondayOf, zonedInstant } from './cinema-time';

describe("the cinema's clocks", () => {
  it('finds the instant a wall clock shows, in and out of summer time', () => {
    expect(zonedInstant('2026-07-01', 'Europe/London', '20:00').toISOString()).toBe(
      '2026-07-01T19:00:00.000Z',
    );
    expect(zonedInstant('2026-12-01', 'Europe/London', '20:00').toISOString()).toBe(
      '2026-12-01T20:00:00.000Z',
    );
    expect(zonedInstant('2026-12-01', 'America/New_York').toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(zonedInstant('2026-11-30', 'Asia/Kolkata', '09:30').toISOString()).toBe(
      '2026-11-30T04:00:00.000Z',
    );
  });

  it('makes the days the clocks change 23 and 25 hours long', () => {
    const spring = dayBounds('2026-03-29', 'Europe/London');
    expect((spring.to.getTime() - spring.from.getTime()) / 3600_000).toBe(23);
    const autumn = dayBounds('2026-10-25', 'Europe/London');
    expect((autumn.to.getTime() - autumn.from.getTime()) / 3600_000).toBe(25);
  });

  it('reads an instant back as the day and time the cinema sees', () => {
    expect(localDate('2026-12-01T04:30:00Z', 'America/New_York')).toBe('2026-11-30');
    expect(localTime('2026-12-01T04:30:00Z', 'America/New_York')).toBe('23:30');
    expect(localTime('2026-07-01T19:00:00Z', 'Europe/London')).toBe('20:00');
  });

  it('counts days and weeks on the calendar', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(isoWeekday('2026-11-30')).toBe(1);
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
  });
});
