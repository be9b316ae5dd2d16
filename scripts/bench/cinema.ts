import { randomBytes } from 'node:crypto';
import { users, sessions } from '../../apps/server/src/db/schema/index.ts';
import { insertPlainHall } from '../../apps/server/src/test/fixtures.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
import { hashPassword } from '../../apps/server/src/modules/accounts/accounts.service.ts';
import { hashToken } from '../../apps/server/src/plugins/auth.ts';
import { request } from './http.ts';

export const ADMIN = { email: 'bench-admin@example.com', password: 'Benchmark#2026' } as const;
const CUSTOMER_PASSWORD = 'Popcorn#2026';

export interface Customer {
  id: string;
  token: string;
}

export interface Hall {
  id: string;
  /** seatIds[row - 1][number - 1] */
  seatIds: string[][];
}

async function ok<T>(what: string, answer: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const res = await answer;
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Signs the admin in (ADMIN_EMAIL/ADMIN_PASSWORD of the server) and returns the token. */
export async function adminToken(base: string): Promise<string> {
  const body = await ok<{ token: string }>(
    'admin sign-in',
    request('POST', `${base}/api/auth/login`, { body: ADMIN }),
  );
  return body.token;
}

/** As the admin, over the API: a hall of rows × cols seats. */
export async function createHall(base: string, token: string, rows: number, cols: number): Promise<Hall> {
  const hall = await ok<{ id: string; seats: { id: string; row: number; number: number }[] }>(
    'create hall',
    request('POST', `${base}/api/admin/rooms`, {
      token,
      body: { name: `Bench Hall ${rows}x${cols}`, rows, cols },
    }),
    201,
  );
  const seatIds = Array.from({ length: rows }, () => Array<string>(cols));
  for (const s of hall.seats) seatIds[s.row - 1]![s.number - 1] = s.id;
  return { id: hall.id, seatIds };
}

/** As the admin, over the API: a movie (no poster) and `count` showtimes of it in the hall, a day apart. */
export async function createShowtimes(
  base: string,
  token: string,
  hall: Hall,
  count: number,
): Promise<string[]> {
  const form = new FormData();
  form.set('title', 'The Benchmark');
  form.set('description', 'Six hundred seats, five hundred customers.');
  form.set('durationMinutes', '110');
  form.set('rating', 'PG');
  const res = await fetch(`${base}/api/admin/movies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`create movie: HTTP ${res.status} ${await res.text()}`);
  const movie = (await res.json()) as { id: string };
  const ids: string[] = [];
  const firstDay = Math.ceil(Date.now() / 86_400_000) + 1;
  for (let i = 0; i < count; i++) {
    const showtime = await ok<{ id: string }>(
      'create showtime',
      request('POST', `${base}/api/admin/showtimes`, {
        token,
        body: {
          movieId: movie.id,
          auditoriumId: hall.id,
          startsAt: new Date((firstDay + i) * 86_400_000 + 19 * 3_600_000).toISOString(),
          priceCents: 1200,
        },
      }),
      201,
    );
    ids.push(showtime.id);
  }
  return ids;
}

/**
 * Customers straight into the database, fast: one argon2 hash shared by all (hashing 500 passwords would take
 * longer than the whole rush) and a session each, stored the way sign-in stores it (the token's SHA-256).
 */
export async function insertCustomers(db: Db, count: number, label: string): Promise<Customer[]> {
  const passwordHash = await hashPassword(CUSTOMER_PASSWORD);
  const customers: Customer[] = [];
  for (let start = 0; start < count; start += 500) {
    const n = Math.min(500, count - start);
    const rows = await db
      .insert(users)
      .values(
        Array.from({ length: n }, (_, i) => ({
          name: `Bench Customer ${start + i + 1}`,
          email: `bench-${label}-${start + i + 1}-${randomBytes(3).toString('hex')}@example.com`,
          passwordHash,
        })),
      )
      .returning({ id: users.id });
    const tokens = rows.map(() => randomBytes(32).toString('base64url'));
    await db.insert(sessions).values(
      rows.map((r, i) => ({
        userId: r.id,
        tokenHash: hashToken(tokens[i]!),
        expiresAt: new Date(Date.now() + 24 * 3_600_000),
      })),
    );
    rows.forEach((r, i) => customers.push({ id: r.id, token: tokens[i]! }));
  }
  return customers;
}

/**
 * A hall of rows × cols plain seats written straight into the database: the admin's editor stops at 1,500 seats a
 * hall, and the high-win rush wants 2,000 of them. Nothing of the hold depends on how the hall came.
 */
export async function insertHall(db: Db, rows: number, cols: number): Promise<Hall> {
  const name = `Bench Hall ${rows}x${cols} ${randomBytes(3).toString('hex')}`;
  const { hall, seats } = await insertPlainHall(db, rows, cols, name);
  const seatIds = Array.from({ length: rows }, () => Array<string>(cols));
  for (const s of seats) seatIds[s.row - 1]![s.number - 1] = s.id;
  return { id: hall.id, seatIds };
}
