import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { localDate } from '@cinema/contract';
import { seats, showtimes, users } from '../../db/schema/index.ts';
import { counterSale } from '../box-office/money.service.ts';
import type { Db } from '../../db/database.ts';
import type { PaymentDeps } from '../payments/payment-deps.ts';
import type { ProductOrder } from '@cinema/contract';
import { loadMenu } from '../concessions/menu.service.ts';

/** The most seats one counter sale takes (CounterSaleBodySchema). */
const PER_SALE = 40;

/**
 * Counter sales on the demo catalogue's first full day, so a new cinema's schedule, seat maps, orders and reports
 * have something to show: its last showtime sold out, the one before it with under a fifth of its seats left
 * ("Selling fast"), and a few seats of the one before that. Sold by the admin in cash to walk-in customers, through
 * the box office's own sale, as staff would; the first sale of the last one with food and drink (two large sweet
 * popcorns, a large cola and a craft beer), so the kitchen and the report's concession figures have something too.
 * Returns the number of seats sold.
 */
export async function seedDemoSales(deps: PaymentDeps, now = new Date()): Promise<number> {
  const { db, config } = deps;
  const admin = await demoSeller(db);
  if (!admin) return 0;
  const upcoming = await db
    .select({ id: showtimes.id, hallId: showtimes.hallId, startsAt: showtimes.startsAt })
    .from(showtimes)
    .where(gt(showtimes.startsAt, new Date(now.getTime() + 3600_000)))
    .orderBy(asc(showtimes.startsAt));
  const byDay = new Map<string, typeof upcoming>();
  for (const s of upcoming) {
    const day = localDate(s.startsAt, config.timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), s]);
  }
  const day = [...byDay.values()].find((list) => list.length >= 3);
  if (!day) return 0;
  const [soldOut, sellingFast, some] = [day.at(-1)!, day.at(-2)!, day.at(-3)!];

  const snacks = await demoSnacks(deps);
  let sold = 0;
  const sell = async (showtime: (typeof upcoming)[number], share: number, products: ProductOrder[] = []) => {
    const hallSeats = await db
      .select({ id: seats.id })
      .from(seats)
      .where(and(eq(seats.hallId, showtime.hallId), eq(seats.blocked, false), isNull(seats.retiredAt)))
      .orderBy(sql`${seats.row} desc`, asc(seats.number));
    const wanted = hallSeats.slice(0, Math.ceil(hallSeats.length * share)).map((s) => s.id);
    for (let i = 0; i < wanted.length; i += PER_SALE) {
      const seatIds = wanted.slice(i, i + PER_SALE);
      await counterSale(deps, admin, {
        showtimeId: showtime.id,
        seatIds,
        paymentMethod: 'cash',
        ...(i === 0 && products.length > 0 && { products }),
      });
      sold += seatIds.length;
    }
  };
  await sell(soldOut, 1);
  await sell(sellingFast, 0.85);
  await sell(some, 0.1, snacks);
  return sold;
}

/** Who sells the demo's counter sales: the first admin (null before one exists). */
export async function demoSeller(db: Db): Promise<{ id: string; email: string } | null> {
  const [admin] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, 'ADMIN'))
    .limit(1);
  return admin ?? null;
}

/**
 * Picks items from the demo menu by name and option names (an item the menu no longer has, or has stopped selling,
 * is left out).
 */
export async function demoMenuPicker(db: Db) {
  const menu = await loadMenu(db);
  return (name: string, quantity: number, choices: string[] = []): ProductOrder[] => {
    const product = menu.products.find((p) => p.name === name && p.active);
    if (!product) return [];
    const options = product.options.flatMap((g) =>
      g.choices.filter((c) => choices.includes(c.name)).map((c) => c.id),
    );
    return [{ productId: product.id, quantity, ...(options.length > 0 && { options }) }];
  };
}

/** Two large sweet popcorns, a large cola and a craft beer from the demo menu (what of them it still has). */
async function demoSnacks({ db }: PaymentDeps): Promise<ProductOrder[]> {
  const order = await demoMenuPicker(db);
  return [
    ...order('Popcorn', 2, ['Large', 'Sweet']),
    ...order('Cola', 1, ['Large']),
    ...order('Craft beer', 1),
  ];
}
