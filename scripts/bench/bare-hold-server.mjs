// The benchmark's bare hold server (issue 32): the least any Node.js server must do to answer the rush's hold
// requests, as a yardstick for the app's hold path, as `GET /api/health/live` is for the seat-map reads. Node's own
// `http`, one `pg` pool of 20 (as the app's), and for `POST /api/showtimes/:id/hold`: the bearer token's session
// looked up once and then kept in memory, the body parsed, the seats sorted, the same `hold_seats` call as the app's
// (prepared, the app's default limits), and the app's answer (201 `{ bookingIds, expiresAt }`, or 409 with the
// refusal's code). Nothing else: no framework, validation, request ids, headers, rate limits, seat-map versions,
// broadcasts or logs. `GET /bytes?n=N` answers N bytes of JSON, for the seat-map reads' yardstick: what sending an answer
// of the map's size costs against one of the bare route's size, on the same bare server. Plain JavaScript, so that nothing but Node runs it: `DATABASE_URL=… [PORT=…] node <this file>`
// (it prints `listening on <port>`; scripts/bench/bare.ts starts it).
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const HOLD = {
  name: 'bare_hold_seats',
  text:
    'select outcome, booking_id, held_seat_id, held_until, detail from hold_seats($1::uuid, $2::uuid, $3::uuid[], ' +
    '$4::float8, $5::int, $6::int, $7::text, $8::int, $9::int)',
};
const SESSION = {
  name: 'bare_session',
  text: 'select user_id from sessions where token_hash = $1 and expires_at > now()',
};
/** Token → user id, for the tokens seen: each customer's session is read from the database once. */
const users = new Map();

async function userOf(req) {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return null;
  const known = users.get(token);
  if (known) return known;
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query({ ...SESSION, values: [hash] });
  const id = rows[0]?.user_id ?? null;
  if (id) users.set(token, id);
  return id;
}

function answer(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function hold(req, res, showtimeId, body) {
  const userId = await userOf(req);
  if (!userId) return answer(res, 401, { error: 'Sign in first', code: 'unauthorized' });
  let seatIds;
  try {
    seatIds = JSON.parse(body).seatIds;
  } catch {
    return answer(res, 400, { error: 'Bad JSON', code: 'bad_request' });
  }
  if (!Array.isArray(seatIds) || seatIds.length === 0)
    return answer(res, 400, { error: 'seatIds', code: 'bad_request' });
  const ids = seatIds.map((id) => String(id).toLowerCase()).sort();
  const { rows } = await pool.query({
    ...HOLD,
    values: [showtimeId.toLowerCase(), userId, ids, 10, 10, 10, null, 40, 60],
  });
  const first = rows[0];
  if (first?.outcome === 'held')
    return answer(res, 201, {
      bookingIds: rows.map((r) => r.booking_id),
      expiresAt: new Date(first.held_until).toISOString(),
    });
  const status = first?.outcome === 'showtime_not_found' ? 404 : 409;
  answer(res, status, {
    error: 'Not held',
    code: first?.outcome,
    ...(first?.detail?.startsWith('[') ? { seatIds: JSON.parse(first.detail) } : {}),
  });
}

/** `GET /bytes?n=N`: a JSON answer of N bytes, the same every time (what sending a body of that size costs). */
const bodies = new Map();
function bytes(res, n) {
  let body = bodies.get(n);
  if (!body) bodies.set(n, (body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, n - 10)) }))));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const size = /^\/bytes\?n=(\d+)$/.exec(req.url ?? '');
  if (req.method === 'GET' && size) return bytes(res, Math.min(Number(size[1]), 10_000_000));
  const match = /^\/api\/showtimes\/([0-9a-fA-F-]{36})\/hold$/.exec(req.url ?? '');
  if (req.method !== 'POST' || !match) return answer(res, 404, { error: 'Not found', code: 'not_found' });
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () =>
    hold(req, res, match[1], body).catch((err) => answer(res, 500, { error: String(err), code: 'internal' })),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  console.log(`listening on ${server.address().port}`),
);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close();
    void pool.end().then(() => process.exit(0));
  });
