import type { FastifyInstance } from 'fastify';
import { formatGiftCardCode } from '@cinema/contract';
import { issueCard } from '../modules/gift-cards/gift-cards.service.ts';

/** A gift card of `cents`, issued as a paid gift card line issues it; `shown` is its code as people read it. */
export async function giveCard(app: FastifyInstance, cents: number) {
  const card = await app.database.db.transaction((tx) =>
    issueCard(tx, { amountCents: cents, currency: app.config.currency, months: app.config.giftCardMonths }),
  );
  return { ...card, shown: formatGiftCardCode(card.code) };
}
