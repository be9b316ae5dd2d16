import { afterEach, describe, expect, it, vi } from 'vitest';
import { localDateTimeToUtcIso, priceCentsFromText, utcIsoToLocalDateTime } from './showtime-input';

// Node re-reads TZ whenever it changes, so each case runs in the viewer's time zone it names.
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('localDateTimeToUtcIso', () => {
  it.each([
    ['America/New_York', '2026-07-01T18:30', '2026-07-01T22:30:00.000Z'], // EDT, UTC−4
    ['America/New_York', '2026-01-15T18:30', '2026-01-15T23:30:00.000Z'], // EST, UTC−5
    ['Asia/Kolkata', '2026-07-01T18:30', '2026-07-01T13:00:00.000Z'], // UTC+5:30
    ['Pacific/Auckland', '2026-01-01T00:15', '2025-12-31T11:15:00.000Z'], // NZDT, UTC+13: the day before
    ['UTC', '2026-07-01T18:30:45', '2026-07-01T18:30:45.000Z'],
  ])('in %s reads %s as local time: %s', (tz, input, expected) => {
    vi.stubEnv('TZ', tz);
    expect(localDateTimeToUtcIso(input)).toBe(expected);
  });

  it.each(['', 'tomorrow', '2026-02-30T10:00', '2026-13-01T10:00', '2026-07-01 18:30', '2026-07-01T25:00'])(
    'refuses %j',
    (input) => {
      expect(localDateTimeToUtcIso(input)).toBeNull();
    },
  );

  it('round-trips through the datetime-local format of the viewer', () => {
    vi.stubEnv('TZ', 'Europe/Berlin');
    expect(utcIsoToLocalDateTime('2026-07-01T16:30:00.000Z')).toBe('2026-07-01T18:30');
    expect(localDateTimeToUtcIso(utcIsoToLocalDateTime('2026-07-01T16:30:00.000Z'))).toBe(
      '2026-07-01T16:30:00.000Z',
    );
  });
});

describe('priceCentsFromText', () => {
  it.each([
    ['12.00', 'USD', 1200],
    ['9.99', 'USD', 999],
    ['15', 'USD', 1500],
    [' 0.01 ', 'USD', 1],
    ['1000', 'USD', 100_000],
    ['12.50', 'EUR', 1250],
    ['1200', 'JPY', 1200],
    ['500', 'JPY', 500],
    ['1.25', 'KWD', 1250],
  ])('turns %s %s into %i minor units', (input, currency, cents) => {
    expect(priceCentsFromText(input, currency)).toBe(cents);
  });

  it.each(['', '   ', '0', '0.00', 'abc', 'NaN', 'Infinity', '12.5', '1,200'])(
    'defaults %j yen to 1200 yen',
    (input) => {
      expect(priceCentsFromText(input, 'JPY')).toBe(1200);
    },
  );
});
