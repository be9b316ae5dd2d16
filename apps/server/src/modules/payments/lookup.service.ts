import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { LookupResponse } from '@cinema/contract';
import { rowLabel } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { bookings, orderLines, orders, seats, showtimes, type OrderStatus } from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import { selectTickets } from '../tickets/tickets.service.ts';
import { fulfilCheckout, releaseCheckout, sendPendingRefunds } from './fulfilment.service.ts';
import { UUID, type PaymentDeps } from './payment-deps.ts';

const lookupStatus: Record<OrderStatus, LookupResponse['status']> = {
  OPEN: 'pending',
  PAID: 'paid',
  PARTLY_REFUNDED: 'paid',
  REFUNDED: 'refunded',
  EXPIRED: 'expired',
  CANCELLED: 'cancelled',
  // Replaced by a newer checkout of the same seats: this one can no longer be paid.
  SUPERSEDED: 'expired',
};

async function findSession(db: Queryable, idOrProviderId: string) {
  const [session] = await db
    .select()
    .from(orders)
    .where(
      UUID.test(idOrProviderId)
        ? or(eq(orders.id, idOrProviderId), eq(orders.providerSessionId, idOrProviderId))
        : eq(orders.providerSessionId, idOrProviderId),
    )
    .limit(1);
  return session ?? null;
}

/**
 * What the success page shows for a session (our id or the provider's): asks the provider first while the
 * session is open, fulfilling it when paid (the customer can arrive before the webhook). Owner only: 404 else.
 */
export async function lookupCheckout(
  deps: PaymentDeps,
  userId: string,
  idOrProviderId: string,
): Promise<LookupResponse> {
  const { db, log } = deps;
  let session = await findSession(db, idOrProviderId);
  if (!session || session.userId !== userId) throw notFound('Checkout session not found');

  if (session.status === 'OPEN') {
    const provider = deps.providers.get(session.provider);
    if (provider && session.providerSessionId) {
      try {
        const state = await provider.getSessionState(session.providerSessionId);
        if (state.state === 'paid') await fulfilCheckout(deps, session.id, { paymentId: state.paymentId });
        else if (state.state === 'expired') await releaseCheckout(deps, session.id, 'EXPIRED');
      } catch (err) {
        // The page keeps polling and the webhook still comes: report pending rather than fail.
        log.warn({ err, sessionId: session.id }, 'could not ask the payment provider about a session');
      }
    }
    // The local provider has no one to tell us it expired: its window passing is the expiry.
    if (session.provider === 'local' && session.expiresAt.getTime() <= Date.now()) {
      await releaseCheckout(deps, session.id, 'EXPIRED');
    }
    session = (await findSession(db, session.id))!;
  } else {
    await sendPendingRefunds(deps, session.id);
  }

  const tickets = await selectTickets(
    db,
    sql`${bookings.id} in (select ${orderLines.bookingId} from ${orderLines}
      where ${orderLines.orderId} = ${session.id} and ${orderLines.result} = 'confirmed')`,
    [asc(showtimes.startsAt), asc(seats.row), asc(seats.number)],
  );
  const refundedSeats = (
    await db
      .select({
        row: orderLines.seatRow,
        number: orderLines.seatNumber,
        label: orderLines.seatRowLabel,
      })
      .from(orderLines)
      .where(
        and(
          eq(orderLines.orderId, session.id),
          eq(orderLines.result, 'refunded'),
          eq(orderLines.kind, 'TICKET'),
        ),
      )
      .orderBy(asc(orderLines.seatRow), asc(orderLines.seatNumber))
  ).map(({ label, row, number }) => ({ row: row!, number: number!, rowLabel: label ?? rowLabel(row!) }));

  return {
    // The id the checkout answered with: Stripe's own for a Stripe session, ours otherwise.
    sessionId:
      session.provider === 'stripe' && session.providerSessionId ? session.providerSessionId : session.id,
    status: lookupStatus[session.status],
    tickets,
    refundedSeats,
    testMode: session.provider === 'local',
    ...(session.ref && { orderRef: session.ref }),
  };
}
