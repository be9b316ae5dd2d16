// The door's admission rule (DESIGN §6.5): when a check-in counts and whether the entry window admits it then. Pure
// and import-free, so the online scan, the offline sync and the web scanner's offline path judge the same way.

/**
 * How far a scanning device's own clock is believed: a check-in queued offline counts at the device's time when that
 * is at most this many minutes before the server received it, not after it and not before the ticket was sold;
 * otherwise it counts when the server received it.
 */
export const DOOR_CLOCK_TOLERANCE_MINUTES = 15;

/** A moment: a Date, an ISO string or milliseconds since the epoch. */
export type Instant = Date | string | number;

/** The entry window in milliseconds since the epoch: open from `opensAt` until just before `closesAt`. */
export interface EntryWindow {
  opensAt: number;
  closesAt: number;
}

export type EntryRefusal = 'too_early' | 'too_late';

const ms = (t: Instant) => (typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : t.getTime());

/** A showtime's entry window: from `entryOpensMinutes` before its start until its end (latecomers while it runs). */
export const entryWindow = (startsAt: Instant, endsAt: Instant, entryOpensMinutes: number): EntryWindow => ({
  opensAt: ms(startsAt) - entryOpensMinutes * 60_000,
  closesAt: ms(endsAt),
});

/** Why the window refuses a check-in counting at `at`, or null while it is open. */
export function entryRefusal(window: EntryWindow, at: Instant): EntryRefusal | null {
  const t = ms(at);
  if (t < window.opensAt) return 'too_early';
  if (t >= window.closesAt) return 'too_late';
  return null;
}

/**
 * When a check-in counts. The server's clock decides: `receivedAt` is when the server got it. A device's own time
 * (`scannedAt`, offline queues only) is believed within DOOR_CLOCK_TOLERANCE_MINUTES before that, never later, and
 * never before the sale (`soldAt`); any other device time is a wrong or forged clock and the check-in counts at
 * `receivedAt`.
 */
export function checkInMoment(moment: {
  receivedAt: Instant;
  scannedAt?: Instant | null;
  soldAt?: Instant | null;
}): { at: number; deviceClockTrusted: boolean } {
  const received = ms(moment.receivedAt);
  if (moment.scannedAt == null) return { at: received, deviceClockTrusted: false };
  const scanned = ms(moment.scannedAt);
  const trusted =
    Number.isFinite(scanned) &&
    scanned <= received &&
    received - scanned <= DOOR_CLOCK_TOLERANCE_MINUTES * 60_000 &&
    (moment.soldAt == null || scanned >= ms(moment.soldAt));
  return { at: trusted ? scanned : received, deviceClockTrusted: trusted };
}

export type Admission =
  | { admit: true; at: number; forced: boolean; deviceClockTrusted: boolean }
  | { admit: false; refusal: EntryRefusal; at: number; deviceClockTrusted: boolean };

/**
 * The one admission rule of the door: the check-in counts at `checkInMoment`, the entry window is judged at that
 * moment, and outside it the ticket is refused unless staff `force` it (then `forced`, which the server audits as
 * `checkin.force`).
 */
export function judgeAdmission(input: {
  window: EntryWindow;
  receivedAt: Instant;
  scannedAt?: Instant | null;
  soldAt?: Instant | null;
  force?: boolean;
}): Admission {
  const { at, deviceClockTrusted } = checkInMoment(input);
  const refusal = entryRefusal(input.window, at);
  if (refusal && !input.force) return { admit: false, refusal, at, deviceClockTrusted };
  return { admit: true, at, forced: refusal !== null, deviceClockTrusted };
}
