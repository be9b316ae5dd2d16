import { and, asc, eq, gt, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Fulfilment, GiftCardPurchase, ProductOrder } from '@cinema/contract';
import { bookings, giftCards, seats, showtimes } from '../../db/schema/index.ts';
import { createUser, findUserByEmail } from '../accounts/accounts.service.ts';
import { generatePassword } from '../accounts/admin-bootstrap.ts';
import { counterSale } from '../box-office/money.service.ts';
import { startCheckout } from '../payments/checkout.service.ts';
import { payLocalCheckout } from '../payments/local-checkout.service.ts';
import type { PaymentDeps } from '../payments/payment-deps.ts';
import { holdSeats, type SeatingDeps } from '../seating/seating.service.ts';
import { demoMenuPicker, demoSeller } from './demo-sales.ts';

/** The demo's customers (addresses of the reserved example.com domain: nothing sent to them reaches anyone). */
export const DEMO_CUSTOMERS = {
  maya: { name: 'Maya Lind', email: 'maya.demo@example.com' },
  leo: { name: 'Leo Park', email: 'leo.demo@example.com' },
} as const;
/** Whom Maya's gift card is for. */
export const DEMO_GIFT_RECIPIENT = 'sam.demo@example.com';

export interface DemoOnlineReport {
  giftCards: number;
  /** Paid online orders with food and drink still to prepare. */
  kitchenOrders: number;
}

/**
 * Gift cards and online orders with food, so a new cinema's gift cards, liability report and kitchen have something
 * to show (DESIGN §7.2, §7.3). All through the services a customer's checkout and the box office use, paid through the
 * built-in test provider whatever PAYMENT_PROVIDER is (no money moves, and no real provider is asked):
 * - Maya buys a 50.00 card online for Sam (emailed to Sam, with a message), and two tickets for the next showtime
 *   (later today while there is one) with popcorn and two colas brought to her seat 20 minutes after it starts;
 * - Leo buys a 25.00 card at the counter (cash, sold by the admin), a 40.00 card online, and then one ticket for the
 *   same showtime with nachos and a water to collect at the bar, paid with that card (partly spent).
 * Run once, with the rest of the demo, on a new catalogue; nothing here is random.
 */
export async function seedDemoOnline(
  deps: PaymentDeps & SeatingDeps,
  now = new Date(),
): Promise<DemoOnlineReport> {
  const { db } = deps;
  const none = { giftCards: 0, kitchenOrders: 0 };
  const seller = await demoSeller(db);
  const [show] = await db
    .select({
      id: showtimes.id,
      hallId: showtimes.hallId,
      startsAt: showtimes.startsAt,
      endsAt: showtimes.endsAt,
    })
    .from(showtimes)
    .where(gt(showtimes.startsAt, new Date(now.getTime() + 45 * 60_000)))
    .orderBy(asc(showtimes.startsAt))
    .limit(1);
  if (!seller || !show) return none;
  // Standard seats nobody has, from the front row's first seat on (no single-seat gap left between them).
  const taken = db
    .select({ seatId: bookings.seatId })
    .from(bookings)
    .where(and(eq(bookings.showtimeId, show.id), inArray(bookings.status, ['HELD', 'CONFIRMED'])));
  const free = await db
    .select({ id: seats.id })
    .from(seats)
    .where(
      and(
        eq(seats.hallId, show.hallId),
        eq(seats.type, 'STANDARD'),
        eq(seats.blocked, false),
        isNull(seats.retiredAt),
        notInArray(seats.id, taken),
      ),
    )
    .orderBy(asc(seats.row), asc(seats.number))
    .limit(3);
  if (free.length < 3) return none;

  // Paid as a customer pays on the local provider's page.
  const online: PaymentDeps & SeatingDeps = {
    ...deps,
    providers: { get: (name) => deps.providers.get(name ?? 'local') },
  };
  const customer = async ({ name, email }: { name: string; email: string }) =>
    (await findUserByEmail(db, email)) ?? createUser(db, { name, email, password: generatePassword() });
  const [maya, leo] = [await customer(DEMO_CUSTOMERS.maya), await customer(DEMO_CUSTOMERS.leo)];
  const hold = async (userId: string, seatIds: string[]) =>
    (await holdSeats(online, { showtimeId: show.id, userId, seatIds, clientAddress: '127.0.0.1' }))
      .bookingIds;
  const buy = async (
    who: { id: string; email: string },
    order: {
      bookingIds?: string[];
      products?: ProductOrder[];
      fulfilment?: Fulfilment;
      giftCards?: GiftCardPurchase[];
      redeem?: { code: string }[];
    },
  ) => {
    const started = await startCheckout(online, {
      userId: who.id,
      email: who.email,
      bookingIds: [],
      ...order,
    });
    // Wholly paid by gift cards, the order is complete already; otherwise "Pay" on the local page.
    if (started.dueCents !== 0 && (await payLocalCheckout(online, started.sessionId)) !== 'paid') {
      throw new Error(`The demo order ${started.orderRef} could not be paid`);
    }
    return started.sessionId;
  };
  const pick = await demoMenuPicker(db);

  await buy(maya, {
    giftCards: [
      {
        amountCents: 5000,
        recipientEmail: DEMO_GIFT_RECIPIENT,
        message: 'Happy birthday, Sam! The popcorn is on me.',
      },
    ],
  });
  const mayaSeats = await hold(maya.id, [free[0]!.id, free[1]!.id]);
  const at = new Date(Math.min(show.startsAt.getTime() + 20 * 60_000, show.endsAt.getTime()));
  await buy(maya, {
    bookingIds: mayaSeats,
    products: [...pick('Popcorn', 1, ['Large', 'Salted']), ...pick('Cola', 2, ['Medium'])],
    fulfilment: { kind: 'SEAT', bookingId: mayaSeats[0]!, at: at.toISOString() },
  });

  await counterSale(deps, seller, {
    seatIds: [],
    paymentMethod: 'cash',
    giftCards: [{ amountCents: 2500 }],
    customerEmail: leo.email,
    customerName: leo.name,
  });
  const leoCardOrder = await buy(leo, { giftCards: [{ amountCents: 4000 }] });
  const [leoCard] = await db
    .select({ code: giftCards.code })
    .from(giftCards)
    .where(eq(giftCards.orderId, leoCardOrder));
  await buy(leo, {
    bookingIds: await hold(leo.id, [free[2]!.id]),
    products: [...pick('Nachos', 1), ...pick('Still water', 1)],
    fulfilment: { kind: 'PICKUP' },
    redeem: [{ code: leoCard!.code }],
  });
  return { giftCards: 3, kitchenOrders: 2 };
}
