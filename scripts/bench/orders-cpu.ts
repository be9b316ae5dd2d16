// CPU per order (issue 33): the server's own CPU time, in this process, for each way an order is made and undone, on
// PostgreSQL (TEST_DATABASE_URL) or the embedded engine. CPU time, not wall time: it barely moves when other work
// shares the machine, so a before and after can be compared where a rush cannot (docs/benchmarks.md, "Orders").
// Usage: node --import tsx scripts/bench/orders-cpu.ts [orders per kind, default 150]
import type { FastifyInstance } from 'fastify';
import { createShowtimeFixture } from '../../apps/server/src/test/fixtures.ts';
import { createTestApp, signedInUser, type SignedIn } from '../../apps/server/src/test/helpers.ts';

const N = Number(process.argv[2] ?? 150);
const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

async function ok(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  who?: SignedIn,
  payload?: object,
) {
  const res = await app.inject({
    method,
    url,
    ...(who && { headers: who.headers }),
    ...(payload && { payload }),
  });
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

/** Median and total CPU milliseconds of `work` run `n` times in turn. */
async function cpuOf(n: number, work: (i: number) => Promise<unknown>) {
  const each: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = process.cpuUsage();
    await work(i);
    const used = process.cpuUsage(before);
    each.push((used.user + used.system) / 1000);
  }
  each.sort((a, b) => a - b);
  return { medianMs: each[Math.floor(n / 2)]!, meanMs: each.reduce((a, b) => a + b, 0) / n };
}

const t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', LOG_LEVEL: 'silent' });
const { app } = t;
try {
  const admin = await signedInUser(app, { role: 'ADMIN' });
  const cols = 30;
  const warm = Math.min(20, N);
  const rows = Math.ceil((N * 2 + warm * 2) / cols) + 1;
  const online = await createShowtimeFixture(app.database.db, { rows, cols, priceCents: 1200 });
  const counter = await createShowtimeFixture(app.database.db, { rows, cols, priceCents: 1200 });
  const customers = await Promise.all(Array.from({ length: N }, () => signedInUser(app)));
  const pair = (s: typeof online, i: number) => s.allSeatIds.slice(2 * i, 2 * i + 2);
  const refs: string[] = [];

  // A warm-up of each path (JIT, prepared plans), on seats of its own at the end of the hall.
  for (let i = 0; i < warm; i++) {
    const who = await signedInUser(app);
    const seats = online.allSeatIds.slice(-2 * (i + 1), -2 * i || undefined);
    const held = (
      await ok(app, 'POST', `/api/showtimes/${online.showtimeId}/hold`, who, { seatIds: seats })
    ).json();
    const out = (await ok(app, 'POST', '/api/pay/checkout', who, { bookingIds: held.bookingIds })).json();
    await ok(app, 'POST', `/api/pay/local/${out.sessionId}/pay`);
  }

  const checkout = await cpuOf(N, async (i) => {
    const who = customers[i]!;
    const held = (
      await ok(app, 'POST', `/api/showtimes/${online.showtimeId}/hold`, who, { seatIds: pair(online, i) })
    ).json();
    const out = (await ok(app, 'POST', '/api/pay/checkout', who, { bookingIds: held.bookingIds })).json();
    await ok(app, 'POST', `/api/pay/local/${out.sessionId}/pay`);
    refs.push(out.orderRef);
  });
  const sale = await cpuOf(N, (i) =>
    ok(app, 'POST', '/api/admin/box-office/sales', admin, {
      showtimeId: counter.showtimeId,
      seatIds: pair(counter, i),
      paymentMethod: i % 2 ? 'card' : 'cash',
    }),
  );
  const refund = await cpuOf(N, (i) => ok(app, 'POST', `/api/admin/orders/${refs[i]}/refund`, admin, {}));
  const myOrders = await cpuOf(N, (i) => ok(app, 'GET', '/api/me/orders', customers[i]));
  const fmt = (r: { medianMs: number; meanMs: number }) =>
    `median ${r.medianMs.toFixed(2)} ms, mean ${r.meanMs.toFixed(2)} ms`;
  console.log(
    `CPU per operation on ${engine}, ${N} each (hold 2 seats + checkout + pay = one online order):`,
  );
  console.log(`  online order (hold, checkout, pay): ${fmt(checkout)}`);
  console.log(`  counter sale (2 seats):             ${fmt(sale)}`);
  console.log(`  staff refund of a whole order:      ${fmt(refund)}`);
  console.log(`  GET /api/me/orders:                 ${fmt(myOrders)}`);
} finally {
  await t.close();
}
