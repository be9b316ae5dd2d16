import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { LookupResponse } from '@cinema/contract';
import { rowLabel } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import {
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  seats,
  showtimes,
  type CheckoutStatus,
} from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import { selectTickets } from '../tickets/tickets.service.ts';
import { fulfilCheckout, releaseCheckout, sendPendingRefunds } from './fulfilment.service.ts';
import { UUID, type PaymentDeps } from './payment-deps.ts';

const lookupStatus: Record<CheckoutStatus, LookupResponse['status']> = {
  open: 'pending',
  paid: 'paid',
  partially_refunded: 'paid',
  refunded: 'refunded',
  expired: 'expired',
  cancelled: 'cancelled',
  // Replaced by a newer checkout of the same seats: this one can no longer be paid.
  superseded: 'expired',
};

async function findSession(db: Queryable, idOrProviderId: string) {
  const [session] = await db
    .select()
    .from(checkoutSessions)
    .where(
      UUID.test(idOrProviderId)
        ? or(eq(checkoutSessions.id, idOrProviderId), eq(checkoutSessions.providerSessionId, idOrProviderId))
        : eq(checkoutSessions.providerSessionId, idOrProviderId),
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

  if (session.status === 'open') {
    const provider = deps.providers.get(session.provider);
    if (provider && session.providerSessionId) {
      try {
        const state = await provider.getSessionState(session.providerSessionId);
        if (state.state === 'paid') await fulfilCheckout(deps, session.id, { paymentId: state.paymentId });
        else if (state.state === 'expired') await releaseCheckout(deps, session.id, 'expired');
      } catch (err) {
        // The page keeps polling and the webhook still comes: report pending rather than fail.
        log.warn({ err, sessionId: session.id }, 'could not ask the payment provider about a session');
      }
    }
    // The local provider has no one to tell us it expired: its window passing is the expiry.
    if (session.provider === 'local' && session.expiresAt.getTime() <= Date.now()) {
      await releaseCheckout(deps, session.id, 'expired');
    }
    session = (await findSession(db, session.id))!;
  } else {
    await sendPendingRefunds(deps, session.id);
  }

  const tickets = await selectTickets(
    db,
    sql`${bookings.id} in (select ${checkoutSessionBookings.bookingId} from ${checkoutSessionBookings}
      where ${checkoutSessionBookings.sessionId} = ${session.id} and ${checkoutSessionBookings.result} = 'confirmed')`,
    [asc(showtimes.startsAt), asc(seats.row), asc(seats.number)],
  );
  const refundedSeats = (
    await db
      .select({
        row: checkoutSessionBookings.seatRow,
        number: checkoutSessionBookings.seatNumber,
        label: checkoutSessionBookings.seatRowLabel,
      })
      .from(checkoutSessionBookings)
      .where(
        and(
          eq(checkoutSessionBookings.sessionId, session.id),
          eq(checkoutSessionBookings.result, 'refunded'),
        ),
      )
      .orderBy(asc(checkoutSessionBookings.seatRow), asc(checkoutSessionBookings.seatNumber))
  ).map(({ label, ...seat }) => ({ ...seat, rowLabel: label ?? rowLabel(seat.row) }));

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
