import { describe, expect, it } from 'vitest';
import {
  checkInMoment,
  DOOR_CLOCK_TOLERANCE_MINUTES,
  entryRefusal,
  entryWindow,
  judgeAdmission,
} from './door-rules.ts';

const MIN = 60_000;
/** A showtime starting at 20:00 and ending at 22:15; entry opens at 19:00 (60 minutes before). */
const start = Date.parse('2026-11-27T20:00:00Z');
const window = entryWindow(new Date(start), '2026-11-27T22:15:00Z', 60);
const at = (minutesFromStart: number) => start + minutesFromStart * MIN;

describe('the entry window', () => {
  it('opens ENTRY_OPENS_MINUTES before the start and closes at the end (the end itself is too late)', () => {
    expect(window).toEqual({ opensAt: at(-60), closesAt: at(135) });
    expect(entryRefusal(window, at(-61))).toBe('too_early');
    expect(entryRefusal(window, at(-60))).toBeNull();
    expect(entryRefusal(window, new Date(at(134)))).toBeNull();
    expect(entryRefusal(window, new Date(at(135)).toISOString())).toBe('too_late');
  });
});

describe('when a check-in counts', () => {
  const receivedAt = at(150); // 15 minutes after the end

  it('an online scan counts when the server received it', () => {
    expect(checkInMoment({ receivedAt })).toEqual({ at: receivedAt, deviceClockTrusted: false });
  });

  it(`believes the device within ${DOOR_CLOCK_TOLERANCE_MINUTES} minutes before the server received it`, () => {
    const scannedAt = receivedAt - DOOR_CLOCK_TOLERANCE_MINUTES * MIN;
    expect(checkInMoment({ receivedAt, scannedAt })).toEqual({ at: scannedAt, deviceClockTrusted: true });
    expect(checkInMoment({ receivedAt, scannedAt: receivedAt })).toEqual({
      at: receivedAt,
      deviceClockTrusted: true,
    });
  });

  it('counts at the server’s clock for a device time too old, in the future, before the sale or unreadable', () => {
    for (const scannedAt of [
      receivedAt - DOOR_CLOCK_TOLERANCE_MINUTES * MIN - 1,
      '2000-01-01T00:00:00Z',
      receivedAt + 1,
      receivedAt + 365 * 24 * 60 * MIN,
      'not a time',
    ])
      expect(checkInMoment({ receivedAt, scannedAt }), String(scannedAt)).toEqual({
        at: receivedAt,
        deviceClockTrusted: false,
      });
    expect(
      checkInMoment({ receivedAt, scannedAt: receivedAt - 5 * MIN, soldAt: receivedAt - 4 * MIN }),
    ).toEqual({ at: receivedAt, deviceClockTrusted: false });
    expect(
      checkInMoment({ receivedAt, scannedAt: receivedAt - 5 * MIN, soldAt: receivedAt - 6 * MIN }),
    ).toEqual({ at: receivedAt - 5 * MIN, deviceClockTrusted: true });
  });
});

describe('the admission rule', () => {
  it('admits inside the window, refuses outside it, and admits a forced ticket as forced', () => {
    expect(judgeAdmission({ window, receivedAt: at(10) })).toMatchObject({ admit: true, forced: false });
    expect(judgeAdmission({ window, receivedAt: at(-21 * 24 * 60) })).toMatchObject({
      admit: false,
      refusal: 'too_early',
    });
    expect(judgeAdmission({ window, receivedAt: at(-21 * 24 * 60), force: true })).toEqual({
      admit: true,
      at: at(-21 * 24 * 60),
      forced: true,
      deviceClockTrusted: false,
    });
    // Force inside the window changes nothing: nothing was overridden.
    expect(judgeAdmission({ window, receivedAt: at(10), force: true })).toMatchObject({ forced: false });
  });

  it('a sync three hours after the show claiming a time inside it is too late, forced at the server’s clock', () => {
    const receivedAt = at(135 + 180);
    expect(judgeAdmission({ window, receivedAt, scannedAt: at(30) })).toMatchObject({
      admit: false,
      refusal: 'too_late',
    });
    expect(judgeAdmission({ window, receivedAt, scannedAt: at(30), force: true })).toEqual({
      admit: true,
      at: receivedAt,
      forced: true,
      deviceClockTrusted: false,
    });
  });

  it('a sync shortly after the end keeps a believable time inside the window: the queue of a door gone offline', () => {
    expect(judgeAdmission({ window, receivedAt: at(140), scannedAt: at(130) })).toEqual({
      admit: true,
      at: at(130),
      forced: false,
      deviceClockTrusted: true,
    });
  });

  it('a device clock in the year 2000 never dates a check-in: it counts when the server received it', () => {
    expect(judgeAdmission({ window, receivedAt: at(10), scannedAt: '2000-01-01T00:00:00Z' })).toMatchObject({
      admit: true,
      at: at(10),
      forced: false,
    });
    expect(
      judgeAdmission({ window, receivedAt: at(200), scannedAt: '2000-01-01T00:00:00Z', force: true }),
    ).toMatchObject({ admit: true, at: at(200), forced: true });
  });
});
