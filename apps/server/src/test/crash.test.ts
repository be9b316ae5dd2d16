import { describe, expect, it } from 'vitest';
import { engines, postgresUrl } from './helpers.ts';
import { runCrashTrials } from './reliability/crash.ts';

/** SIGKILLs per engine (CRASH_KILLS raises it). */
const KILLS = Number(process.env.CRASH_KILLS ?? 3);

describe.each(engines)('the real server killed mid-traffic on %s', (engine) => {
  it(`loses no acknowledged hold or payment over ${KILLS} SIGKILLs and restarts, and never sells a seat twice`, async () => {
    const report = await runCrashTrials({ engine, kills: KILLS, postgresUrl });
    expect(report.kills).toBe(KILLS);
    // The kills landed in the middle of real work.
    expect(report.holdsAcknowledged).toBeGreaterThan(KILLS);
    expect(report.paymentsAcknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.doubleBookings).toEqual([]);
    expect(report.servedAfterEveryRestart).toBe(true);
  }, 240_000);
});
