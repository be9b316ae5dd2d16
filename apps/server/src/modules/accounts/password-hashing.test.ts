import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  INSECURE_TEST_PASSWORD_HASHES,
  passwordHashOptions,
  verifyPassword,
} from './accounts.service.ts';

/** argon2id's cost as a hash records it: `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$…`. */
function costOf(passwordHash: string) {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  if (!m) throw new Error(`not an argon2id hash: ${passwordHash}`);
  return { memoryKiB: Number(m[1]), passes: Number(m[2]), lanes: Number(m[3]) };
}

// The suite hashes with the cheap cost (vitest.config.ts sets INSECURE_TEST_PASSWORD_HASHES=1; decision 050): a
// real server must not, so what it gets without the setting is checked here.
describe('password hashing cost', () => {
  it('is the library default, OWASP minimum (argon2id, 19 MiB, 2 passes), when the setting is absent', async () => {
    expect(passwordHashOptions({})).toBeUndefined();
    const real = await hash('Popcorn#2026', passwordHashOptions({}));
    expect(costOf(real)).toEqual({ memoryKiB: 19_456, passes: 2, lanes: 1 });
    expect(await verifyPassword(real, 'Popcorn#2026')).toBe(true);
  });

  it('is lowered only by the exact value 1', () => {
    for (const value of ['0', '', 'true', 'yes', ' 1', 'on'])
      expect(passwordHashOptions({ [INSECURE_TEST_PASSWORD_HASHES]: value })).toBeUndefined();
    expect(passwordHashOptions({ [INSECURE_TEST_PASSWORD_HASHES]: '1' })).toEqual({
      memoryCost: 64,
      timeCost: 1,
      parallelism: 1,
    });
  });

  it('reads the setting at each hash, and hashes of either cost verify', async () => {
    const before = process.env[INSECURE_TEST_PASSWORD_HASHES];
    try {
      delete process.env[INSECURE_TEST_PASSWORD_HASHES];
      const real = await hashPassword('Popcorn#2026');
      process.env[INSECURE_TEST_PASSWORD_HASHES] = '1';
      const cheap = await hashPassword('Popcorn#2026');
      expect(costOf(real).memoryKiB).toBe(19_456);
      expect(costOf(cheap)).toEqual({ memoryKiB: 64, passes: 1, lanes: 1 });
      for (const h of [real, cheap]) {
        expect(await verifyPassword(h, 'Popcorn#2026')).toBe(true);
        expect(await verifyPassword(h, 'popcorn#2026')).toBe(false);
      }
    } finally {
      if (before === undefined) delete process.env[INSECURE_TEST_PASSWORD_HASHES];
      else process.env[INSECURE_TEST_PASSWORD_HASHES] = before;
    }
  });
});
