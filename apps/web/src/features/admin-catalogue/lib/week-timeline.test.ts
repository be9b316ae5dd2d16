import { describe, expect, it } from 'vitest';
import { localTime } from '@cinema/contract/constants';
import { formatDuration, weekTimeline } from './week-timeline';

const TZ = 'Europe/London';
/** A day's segments as text: "kind from–to". */
const drawn = (day: ReturnType<typeof weekTimeline>[number]) =>
  day.segments.map((s) => `${s.kind} ${localTime(s.from, TZ)}–${localTime(s.to, TZ)}`);

describe('a hall’s week', () => {
  it('draws films, their cleaning and the free time between them, on the cinema’s clocks', () => {
    const days = weekTimeline('2026-11-30', TZ, [
      // 18:00 for 105 minutes (90 + 15 cleaning), and 20:30 for 120 + 15.
      { id: 'b', movie: 'Late', startsAt: '2026-12-01T20:30:00Z', endsAt: '2026-12-01T22:45:00Z' },
      { id: 'a', movie: 'Early', startsAt: '2026-12-01T18:00:00Z', endsAt: '2026-12-01T19:45:00Z' },
    ]);
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
    ]);
    expect(drawn(days[0]!)).toEqual(['free 09:00–00:00']);
    expect(drawn(days[1]!)).toEqual([
      'free 09:00–18:00',
      'film 18:00–19:30',
      'cleaning 19:30–19:45',
      'free 19:45–20:30',
      'film 20:30–22:30',
      'cleaning 22:30–22:45',
      'free 22:45–00:00',
    ]);
  });

  it('carries a showtime past midnight into the next day, and opens earlier for an early one', () => {
    const days = weekTimeline('2026-11-30', TZ, [
      { id: 'n', movie: 'Night', startsAt: '2026-11-30T23:00:00Z', endsAt: '2026-12-01T01:15:00Z' },
      { id: 'm', movie: 'Morning', startsAt: '2026-12-02T07:00:00Z', endsAt: '2026-12-02T08:45:00Z' },
    ]);
    expect(drawn(days[0]!)).toEqual(['free 09:00–23:00', 'film 23:00–00:00']);
    expect(drawn(days[1]!)).toEqual(['film 00:00–01:00', 'cleaning 01:00–01:15', 'free 01:15–00:00']);
    expect(days[1]!.segments[0]).toMatchObject({ kind: 'film', continued: true });
    expect(drawn(days[2]!)[0]).toBe('film 07:00–08:30');
  });

  it('says durations plainly', () => {
    expect(formatDuration(45 * 60_000)).toBe('45 min');
    expect(formatDuration(125 * 60_000)).toBe('2 h 05 min');
    expect(formatDuration(180 * 60_000)).toBe('3 h');
  });
});
