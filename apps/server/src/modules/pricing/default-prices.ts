import { count, sql } from 'drizzle-orm';
import { RATING_SYSTEMS, type RatingSystem, type SeatType } from '@cinema/contract';
import type { Db } from '../../db/database.ts';
import { priceCardPrices, priceCards, ticketTypes } from '../../db/schema/index.ts';

// Arbitrary advisory-lock keys: two processes starting on one empty database must not both create these.
const TYPES_LOCK = 71_002;
const CARDS_LOCK = 71_003;

/** The ticket types an empty cinema starts with; the first is the default. */
export const DEFAULT_TICKET_TYPES = ['Adult', 'Child', 'Senior', 'Student'];

/** The youngest age a certificate must admit for a Child ticket to be sold for it (no Child ticket for R, 15, 18). */
const CHILD_MAX_AGE = 14;

/**
 * Creates the default ticket types when there are none (Child not sold for the certificates of the cinema's system
 * that admit nobody of 14 or under); returns their names (empty when there were some).
 */
export async function ensureDefaultTicketTypes(
  db: Db,
  ratingSystem: RatingSystem = 'MPAA',
): Promise<string[]> {
  const notForChildren = RATING_SYSTEMS[ratingSystem]
    .filter((c) => c.minAge > CHILD_MAX_AGE)
    .map((c) => c.code);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TYPES_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(ticketTypes);
    if (existing!.n > 0) return [];
    await tx.insert(ticketTypes).values(
      DEFAULT_TICKET_TYPES.map((name, position) => ({
        name,
        position,
        excludedRatings: name === 'Child' ? notForChildren : [],
      })),
    );
    return DEFAULT_TICKET_TYPES;
  });
}

/** A price per seat type from one base price: premium and sofa seats cost more; spaces and companions the same. */
const bySeat = (base: number): Record<SeatType, number> => ({
  STANDARD: base,
  PREMIUM: base + 300,
  SOFA: base + 500,
  WHEELCHAIR: base,
  COMPANION: base,
});

/**
 * The demo's price cards: every day, cheaper matinees on weekday afternoons (it wins in its window), and dearer
 * cards for 3D and IMAX showtimes (chosen by the attribute before any other).
 */
const DEMO_CARDS: {
  name: string;
  weekdays: number[];
  from: string;
  to: string;
  base: Record<string, number>;
  attribute?: string;
}[] = [
  {
    name: 'Standard',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    from: '00:00',
    to: '24:00',
    base: { Adult: 1250, Child: 850, Senior: 950, Student: 1000 } as Record<string, number>,
  },
  {
    name: 'Matinee',
    weekdays: [1, 2, 3, 4, 5],
    from: '10:00',
    to: '17:00',
    base: { Adult: 900, Child: 700, Senior: 700, Student: 800 } as Record<string, number>,
  },
  {
    name: '3D',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    from: '00:00',
    to: '24:00',
    base: { Adult: 1550, Child: 1150, Senior: 1250, Student: 1300 },
    attribute: '3D',
  },
  {
    name: 'IMAX',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    from: '00:00',
    to: '24:00',
    base: { Adult: 1850, Child: 1350, Senior: 1450, Student: 1550 },
    attribute: 'IMAX',
  },
];

/** On a cinema without price cards: the demo's Standard, Matinee, 3D and IMAX cards for its ticket types. */
export async function seedDemoPriceCards(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CARDS_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(priceCards);
    if (existing!.n > 0) return [];
    const types = await tx.select({ id: ticketTypes.id, name: ticketTypes.name }).from(ticketTypes);
    for (const card of DEMO_CARDS) {
      const [row] = await tx
        .insert(priceCards)
        .values({
          name: card.name,
          weekdays: card.weekdays,
          startsAt: card.from,
          endsAt: card.to,
          attribute: card.attribute ?? null,
        })
        .returning({ id: priceCards.id });
      const prices = types.flatMap((t) => {
        const base = card.base[t.name];
        if (base === undefined) return [];
        return Object.entries(bySeat(base)).map(([seatType, priceCents]) => ({
          priceCardId: row!.id,
          ticketTypeId: t.id,
          seatType: seatType as SeatType,
          priceCents,
        }));
      });
      if (prices.length > 0) await tx.insert(priceCardPrices).values(prices);
    }
    return DEMO_CARDS.map((c) => c.name);
  });
}
