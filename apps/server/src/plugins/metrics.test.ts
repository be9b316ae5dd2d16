import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShowtimeFixture, type ShowtimeFixture } from '../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../test/helpers.ts';

/** The value of one series in a Prometheus text scrape (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe.each(engines)('GET /metrics (%s)', (engine) => {
  describe('METRICS=on', () => {
    let t: TestApp;
    let show: ShowtimeFixture;
    let alice: SignedIn;
    let bob: SignedIn;
    beforeAll(async () => {
      t = await createTestApp(engine, { METRICS: 'on', SWEEP_SECONDS: '3600' });
      show = await createShowtimeFixture(t.app.database.db);
      alice = await signedInUser(t.app);
      bob = await signedInUser(t.app);
    });
    afterAll(() => t.close());

    const scrape = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      return res.body;
    };

    it('counts a hold won, one refused with its reason, a checkout, and requests by route pattern', async () => {
      const before = await scrape();
      const seat = show.allSeatIds[0]!;
      const hold = (who: SignedIn) =>
        t.app.inject({
          method: 'POST',
          url: `/api/showtimes/${show.showtimeId}/hold`,
          headers: who.headers,
          payload: { seatIds: [seat] },
        });
      const won = await hold(alice);
      expect(won.statusCode, won.body).toBe(201);
      const refused = await hold(bob);
      expect(refused.statusCode).toBe(409);
      const reason = (refused.json() as { code: string }).code;
      const checkout = await t.app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: alice.headers,
        payload: { bookingIds: (won.json() as { bookingIds: string[] }).bookingIds },
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      const { sessionId } = checkout.json() as { sessionId: string };
      const pay = await t.app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
      expect(pay.statusCode).toBe(303);

      const after = await scrape();
      const delta = (series: string) => sample(after, series) - sample(before, series);
      expect(delta('cinema_holds_total{result="won",reason=""}')).toBe(1);
      expect(delta(`cinema_holds_total{result="refused",reason="${reason}"}`)).toBe(1);
      expect(delta('cinema_checkouts_started_total')).toBe(1);
      expect(delta('cinema_payments_fulfilled_total{channel="online"}')).toBe(1);
      // The route pattern, never the showtime's id.
      expect(delta('http_requests_total{method="POST",route="/api/showtimes/:id/hold",status="2xx"}')).toBe(
        1,
      );
      expect(delta('http_requests_total{method="POST",route="/api/showtimes/:id/hold",status="4xx"}')).toBe(
        1,
      );
      expect(after).not.toContain(show.showtimeId);
      expect(after).toContain(
        'http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/showtimes/:id/hold",status="2xx"}',
      );
      // prom-client's process figures, event-loop lag among them.
      expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      if (engine === 'postgres') expect(after).toMatch(/^db_pool_connections\{state="total"\} [1-9]/m);
      else expect(after).not.toMatch(/^db_pool_connections\{/m);
    });

    it('counts orders from their events: a counter sale, the seats a refund gave back, tickets moved', async () => {
      const admin = await signedInAdmin(t.app);
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
      const before = await scrape();
      const sale = await post('/api/admin/box-office/sales', {
        showtimeId: show.showtimeId,
        seatIds: show.allSeatIds.slice(-3),
        paymentMethod: 'cash',
      });
      expect(sale.statusCode, sale.body).toBe(200);
      const { ref, lines } = sale.json() as { ref: string; lines: { bookingId: string }[] };
      const refund = await post(`/api/admin/orders/${ref}/refund`, {
        bookingIds: [lines[0]!.bookingId, lines[1]!.bookingId],
      });
      expect(refund.statusCode, refund.body).toBe(200);
      // Asked again: nothing refunded, nothing counted.
      await post(`/api/admin/orders/${ref}/refund`, { bookingIds: [lines[0]!.bookingId] });
      const exchange = await post(`/api/admin/orders/${ref}/exchange`, {
        moves: [{ bookingId: lines[2]!.bookingId, seatId: show.allSeatIds[5]! }],
      });
      expect(exchange.statusCode, exchange.body).toBe(200);

      const after = await scrape();
      const delta = (series: string) => sample(after, series) - sample(before, series);
      expect(delta('cinema_payments_fulfilled_total{channel="box_office"}')).toBe(1);
      expect(delta('cinema_payments_fulfilled_total{channel="online"}')).toBe(0);
      expect(delta('cinema_refunds_total{kind="staff"}')).toBe(2);
      expect(delta('cinema_tickets_moved_total')).toBe(1);
    });
  });

  it('is a 404 when off (the default)', async () => {
    const t = await createTestApp(engine);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http_requests_total');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN, answers only that bearer token', async () => {
    const token = 'scrape-token-0123456789abcdef';
    const t = await createTestApp(engine, { METRICS_TOKEN: token });
    try {
      const none = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      const wrong = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-token-0123456789abcdeX' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).not.toContain('http_requests_total');
      const right = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('# TYPE cinema_holds_total counter');
    } finally {
      await t.close();
    }
  });
});
