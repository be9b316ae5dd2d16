import { describe, expect, it } from 'vitest';
import { hashToken, sessionChecks, type AuthUser } from './auth.ts';

const user = (id: string): AuthUser => ({
  id,
  name: id,
  email: `${id}@example.com`,
  role: 'USER',
  sessionId: `s-${id}`,
});

/** A session table of token → user, and the token hashes the database was asked for, in order. */
function fakeDatabase(live: Record<string, string>) {
  const byHash = new Map(Object.entries(live).map(([token, id]) => [hashToken(token), user(id)]));
  const asked: string[] = [];
  const tokenOf = new Map(Object.keys(live).map((token) => [hashToken(token), token]));
  return {
    asked,
    end: (token: string) => byHash.delete(hashToken(token)),
    lookup: async (tokenHash: string) => {
      asked.push(tokenOf.get(tokenHash) ?? tokenHash);
      return byHash.get(tokenHash);
    },
  };
}

describe('session checks', () => {
  it('asks the database for every user(), and answers null once the session has ended', async () => {
    const db = fakeDatabase({ tokA: 'alice' });
    const checks = sessionChecks(db.lookup);
    expect((await checks.user('tokA'))?.id).toBe('alice');
    expect((await checks.user('tokA'))?.id).toBe('alice');
    db.end('tokA');
    expect(await checks.user('tokA')).toBeNull();
    expect(await checks.user('nope')).toBeNull();
    expect(db.asked).toEqual(['tokA', 'tokA', 'tokA', hashToken('nope')]);
  });

  it('skips the database only for a known token whose user is not wanted', async () => {
    const db = fakeDatabase({ tokA: 'alice', tokB: 'bob' });
    const checks = sessionChecks(db.lookup);
    const onlyAlice = (id: string) => id === 'alice';

    // Unknown tokens are checked, whoever they belong to.
    expect((await checks.userIf('tokA', onlyAlice))?.id).toBe('alice');
    expect(await checks.userIf('tokB', onlyAlice)).toBeNull();
    expect(db.asked).toEqual(['tokA', 'tokB']);

    // Bob's token is known now, and Bob is not wanted: nothing to check, answered at once (no promise: a seat-map
    // read by someone without holds waits for nothing but Redis's version).
    expect(checks.userIf('tokB', onlyAlice)).toBeNull();
    expect(db.asked).toEqual(['tokA', 'tokB']);

    // Alice is wanted: her session is checked every time, and once it has ended she is nobody.
    expect((await checks.userIf('tokA', onlyAlice))?.id).toBe('alice');
    db.end('tokA');
    expect(await checks.userIf('tokA', onlyAlice)).toBeNull();
    expect(db.asked).toEqual(['tokA', 'tokB', 'tokA', 'tokA']);

    // When Bob becomes wanted (say he just held seats), his session is checked again.
    expect((await checks.userIf('tokB', () => true))?.id).toBe('bob');
    expect(db.asked).toEqual(['tokA', 'tokB', 'tokA', 'tokA', 'tokB']);
  });

  it('remembers only what it has checked, and the last 10,000 tokens at most', async () => {
    const live: Record<string, string> = {};
    for (let i = 0; i <= 10_000; i++) live[`tok${i}`] = `user${i}`;
    const db = fakeDatabase(live);
    const checks = sessionChecks(db.lookup);
    const nobody = () => false;
    // A token that was never valid is not remembered as anybody's.
    await checks.userIf('forged', nobody);
    await checks.userIf('forged', nobody);
    expect(db.asked).toEqual([hashToken('forged'), hashToken('forged')]);

    for (let i = 0; i <= 10_000; i++) await checks.user(`tok${i}`);
    db.asked.length = 0;
    await checks.userIf('tok10000', nobody); // among the last 10,000: known
    await checks.userIf('tok1', nobody); // likewise
    await checks.userIf('tok0', nobody); // the oldest, forgotten: checked again
    expect(db.asked).toEqual(['tok0']);
  });
});
