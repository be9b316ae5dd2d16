import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayBounds,
  dayStart,
  daysBetween,
  filmWeek,
  inTimeWindow,
  instantAt,
  isoWeekday,
  localDate,
  localDayTime,
  localTime,
  weekStart,
} from './cinema-clock.ts';

const HOUR = 3_600_000;
const hours = (b: { from: Date; to: Date }) => (b.to.getTime() - b.from.getTime()) / HOUR;
const at = (date: string, time: string, zone: string) => instantAt(date, time, zone).at.toISOString();

/** What Intl itself reads at an instant, without the module's cache: the oracle ("2026-11-30 23:30" in Sweden's way). */
const oracles = new Map<string, Intl.DateTimeFormat>();
function intlReading(t: number, timeZone: string): { date: string; time: string } {
  let format = oracles.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' });
    oracles.set(timeZone, format);
  }
  const [date, time] = format.format(t).split(' ') as [string, string];
  return { date, time };
}

const ZONES = [
  'Europe/London',
  'America/New_York',
  'Pacific/Auckland',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'America/Santiago',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'UTC',
];

describe("the cinema's clock: instants to days and times", () => {
  it('reads the day and time the cinema sees, whatever the viewer or the server keeps', () => {
    expect(localDate('2026-12-01T04:30:00Z', 'America/New_York')).toBe('2026-11-30');
    expect(localTime('2026-12-01T04:30:00Z', 'America/New_York')).toBe('23:30');
    expect(localTime(new Date('2026-07-01T19:00:00Z'), 'Europe/London')).toBe('20:00');
    // Far from UTC: already tomorrow in Tokyo and Auckland (+13 in the southern summer).
    expect(localDate(Date.parse('2026-11-30T15:00:00Z'), 'Asia/Tokyo')).toBe('2026-12-01');
    expect(localTime('2026-11-30T15:00:00Z', 'Asia/Tokyo')).toBe('00:00');
    expect(localDayTime('2026-11-30T11:30:00Z', 'Pacific/Auckland')).toEqual({
      date: '2026-12-01',
      weekday: 2,
      time: '00:30',
    });
    expect(() => localDate('not a date', 'UTC')).toThrow(RangeError);
  });

  it('follows the clocks across a change: Europe/London at the end of October, New York in March', () => {
    // London goes back from 02:00 BST to 01:00 GMT on 25 October 2026: 01:xx is shown twice.
    expect(localTime('2026-10-25T00:30:00Z', 'Europe/London')).toBe('01:30');
    expect(localTime('2026-10-25T01:30:00Z', 'Europe/London')).toBe('01:30');
    expect(localDayTime('2026-10-25T09:30:00Z', 'Europe/London')).toMatchObject({
      weekday: 7,
      time: '09:30',
    });
    // New York jumps from 02:00 EST to 03:00 EDT on 8 March 2026.
    expect(localTime('2026-03-08T06:59:00Z', 'America/New_York')).toBe('01:59');
    expect(localTime('2026-03-08T07:00:00Z', 'America/New_York')).toBe('03:00');
  });

  it('agrees with Intl at every quarter hour of the days the clocks change, in every zone', () => {
    const changes = [
      '2026-03-08',
      '2026-03-29',
      '2026-04-05',
      '2026-09-06',
      '2026-09-27',
      '2026-10-04',
      '2026-10-25',
    ];
    for (const zone of ZONES) {
      for (const day of changes) {
        const from = Date.parse(`${day}T00:00:00Z`) - 24 * HOUR;
        for (let t = from; t < from + 72 * HOUR; t += 15 * 60_000) {
          expect(
            { date: localDate(t, zone), time: localTime(t, zone) },
            `${zone} ${new Date(t).toISOString()}`,
          ).toEqual(intlReading(t, zone));
        }
      }
    }
  });

  it('agrees with Intl at any instant from 1970 to 2100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...ZONES), (t, zone) => {
        expect({ date: localDate(t, zone), time: localTime(t, zone) }).toEqual(intlReading(t, zone));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("the cinema's clock: days and times to instants", () => {
  it('finds the instant a wall clock shows, in and out of summer time and far from UTC', () => {
    expect(at('2026-07-01', '20:00', 'Europe/London')).toBe('2026-07-01T19:00:00.000Z');
    expect(at('2026-12-01', '20:00', 'Europe/London')).toBe('2026-12-01T20:00:00.000Z');
    expect(dayStart('2026-12-01', 'America/New_York').toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(at('2026-11-30', '09:30', 'Asia/Kolkata')).toBe('2026-11-30T04:00:00.000Z');
    expect(at('2026-12-01', '00:00', 'Asia/Tokyo')).toBe('2026-11-30T15:00:00.000Z');
    expect(at('2026-12-24', '19:00', 'Pacific/Auckland')).toBe('2026-12-24T06:00:00.000Z');
    expect(at('2026-06-24', '19:00', 'Pacific/Auckland')).toBe('2026-06-24T07:00:00.000Z');
  });

  it('keeps a weekly 20:00 at 20:00 across a change of the clocks (Berlin, 2027)', () => {
    const BERLIN = 'Europe/Berlin';
    // Berlin leaves summer time on Sunday 31 October 2027 and starts it on Sunday 28 March.
    expect(instantAt('2027-10-30', '20:00', BERLIN)).toEqual({
      at: new Date('2027-10-30T18:00:00Z'),
      exists: true,
    });
    expect(instantAt('2027-10-31', '20:00', BERLIN)).toEqual({
      at: new Date('2027-10-31T19:00:00Z'),
      exists: true,
    });
    expect(at('2027-03-27', '20:00', BERLIN)).toBe('2027-03-27T19:00:00.000Z');
    expect(at('2027-03-28', '20:00', BERLIN)).toBe('2027-03-28T18:00:00.000Z');
    expect(at('2026-12-01', '19:30', 'America/New_York')).toBe('2026-12-02T00:30:00.000Z');
    expect(instantAt('2027-03-28', '02:30', BERLIN)).toEqual({
      at: new Date('2027-03-28T01:30:00Z'),
      exists: false,
    });
    expect(at('2027-10-31', '02:30', BERLIN)).toBe('2027-10-31T00:30:00.000Z');
  });

  it('takes the first of a time shown twice and says when a time is skipped', () => {
    // London, 25 October 2026: 01:30 BST comes before 01:30 GMT.
    expect(instantAt('2026-10-25', '01:30', 'Europe/London')).toEqual({
      at: new Date('2026-10-25T00:30:00Z'),
      exists: true,
    });
    // New York, 1 November 2026: 01:30 EDT before 01:30 EST.
    expect(at('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    // Auckland goes back from 03:00 NZDT to 02:00 NZST on 5 April 2026: 02:30 NZDT first.
    expect(at('2026-04-05', '02:30', 'Pacific/Auckland')).toBe('2026-04-04T13:30:00.000Z');
    // Skipped: 02:30 in New York on 8 March is read as 03:30 EDT; London's 01:30 on 29 March as 02:30 BST.
    expect(instantAt('2026-03-08', '02:30', 'America/New_York')).toEqual({
      at: new Date('2026-03-08T07:30:00Z'),
      exists: false,
    });
    expect(instantAt('2026-03-29', '01:30', 'Europe/London')).toEqual({
      at: new Date('2026-03-29T01:30:00Z'),
      exists: false,
    });
    // Auckland jumps from 02:00 NZST to 03:00 NZDT on 27 September 2026: 02:30 is read as 03:30 NZDT.
    expect(instantAt('2026-09-27', '02:30', 'Pacific/Auckland')).toEqual({
      at: new Date('2026-09-26T14:30:00Z'),
      exists: false,
    });
    expect(localTime(instantAt('2026-09-27', '02:30', 'Pacific/Auckland').at, 'Pacific/Auckland')).toBe(
      '03:30',
    );
  });

  it('makes the days the clocks change 23 and 25 hours long, and starts a day whose midnight is skipped at the jump', () => {
    expect(hours(dayBounds('2026-03-29', 'Europe/London'))).toBe(23);
    expect(hours(dayBounds('2026-10-25', 'Europe/London'))).toBe(25);
    expect(hours(dayBounds('2026-03-08', 'America/New_York'))).toBe(23);
    expect(hours(dayBounds('2026-11-01', 'America/New_York'))).toBe(25);
    expect(hours(dayBounds('2026-09-27', 'Pacific/Auckland'))).toBe(23);
    expect(hours(dayBounds('2026-04-05', 'Pacific/Auckland'))).toBe(25);
    expect(hours(dayBounds('2026-03-08', 'Asia/Tokyo'))).toBe(24);
    // Santiago's clocks jump from 00:00 to 01:00 on 6 September 2026: that day begins at 01:00, the jump.
    expect(dayBounds('2026-09-06', 'America/Santiago')).toEqual({
      from: new Date('2026-09-06T04:00:00Z'),
      to: new Date('2026-09-07T03:00:00Z'),
    });
    expect(localDate(new Date('2026-09-06T03:59:00Z'), 'America/Santiago')).toBe('2026-09-05');
  });

  it('reads back every minute it names: the same day and time, on the day or the first time it is shown', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2060, 0, 1) / 60_000 }),
        fc.constantFrom(...ZONES),
        (minute, zone) => {
          const t = minute * 60_000;
          const found = instantAt(localDate(t, zone), localTime(t, zone), zone);
          expect(found.exists).toBe(true);
          expect(found.at.getTime()).toBeLessThanOrEqual(t);
          expect([localDate(found.at, zone), localTime(found.at, zone)]).toEqual([
            localDate(t, zone),
            localTime(t, zone),
          ]);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("the cinema's calendar", () => {
  it('counts days and weekdays on the calendar', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(isoWeekday('2026-11-30')).toBe(1);
    expect(daysBetween('2026-10-30', '2026-11-02')).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(daysBetween('2026-11-02', '2026-11-01')).toEqual([]);
  });

  it('starts a week on the weekday asked: Monday by default, Friday for a film week', () => {
    expect(weekStart('2026-11-29')).toBe('2026-11-23');
    expect(weekStart('2026-11-30')).toBe('2026-11-30');
    expect(weekStart('2026-11-26', 5)).toBe('2026-11-20'); // a Thursday: the film week began the Friday before
    expect(weekStart('2026-11-27', 5)).toBe('2026-11-27'); // a Friday begins its own
    expect(weekStart('2026-11-29', 5)).toBe('2026-11-27');
    expect(weekStart('2026-11-29', 7)).toBe('2026-11-29');
  });

  it('bounds a film week on the cinema clocks, an hour longer or shorter across a change', () => {
    expect(filmWeek('2026-11-30', 'Asia/Tokyo')).toEqual({
      first: '2026-11-27',
      last: '2026-12-03',
      from: new Date('2026-11-26T15:00:00Z'),
      to: new Date('2026-12-03T15:00:00Z'),
    });
    const autumn = filmWeek('2026-10-25', 'Europe/London');
    expect([autumn.first, autumn.last, hours(autumn)]).toEqual(['2026-10-23', '2026-10-29', 169]);
    const spring = filmWeek('2026-03-12', 'America/New_York');
    expect([spring.first, spring.last, hours(spring)]).toEqual(['2026-03-06', '2026-03-12', 167]);
    const auckland = filmWeek(localDate('2026-04-02T12:00:00Z', 'Pacific/Auckland'), 'Pacific/Auckland');
    expect([auckland.first, auckland.from.toISOString(), hours(auckland)]).toEqual([
      '2026-04-03',
      '2026-04-02T11:00:00.000Z',
      169,
    ]);
    // Every instant of the week is in it, by the cinema's day.
    for (let t = autumn.from.getTime(); t < autumn.to.getTime(); t += HOUR) {
      expect(
        localDate(t, 'Europe/London') >= autumn.first && localDate(t, 'Europe/London') <= autumn.last,
      ).toBe(true);
    }
  });

  it('tells whether a time of day is in a window: from its start, until before its end', () => {
    const matinee = { from: '10:00', to: '17:00' };
    expect(['09:59', '10:00', '16:59', '17:00'].map((t) => inTimeWindow(t, matinee))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(inTimeWindow('23:59', { from: '00:00', to: '24:00' })).toBe(true);
  });
});
