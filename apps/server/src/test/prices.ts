import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { PriceCard, TicketType } from '@cinema/contract';
import { ensureDefaultTicketTypes } from '../modules/pricing/default-prices.ts';
import type { SignedIn } from './helpers.ts';

/**
 * The default ticket types and one price card for every day and hour, as staff set them up over the API: Adult 13.00
 * (16.00 on a premium seat), Child 8.00. The types' ids and the card.
 */
export async function setUpPrices(app: FastifyInstance, admin: SignedIn) {
  await ensureDefaultTicketTypes(app.database.db);
  const types = (
    await app.inject({ method: 'GET', url: '/api/admin/ticket-types', headers: admin.headers })
  ).json() as TicketType[];
  const id = (name: string) => types.find((t) => t.name === name)!.id;
  const card = await app.inject({
    method: 'POST',
    url: '/api/admin/price-cards',
    headers: admin.headers,
    payload: {
      name: 'Evenings',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      from: '00:00',
      to: '24:00',
      prices: [
        { ticketTypeId: id('Adult'), seatType: 'STANDARD', priceCents: 1300 },
        { ticketTypeId: id('Adult'), seatType: 'PREMIUM', priceCents: 1600 },
        { ticketTypeId: id('Child'), seatType: 'STANDARD', priceCents: 800 },
      ],
    },
  });
  expect(card.statusCode, card.body).toBe(201);
  return { adult: id('Adult'), child: id('Child'), senior: id('Senior'), card: card.json() as PriceCard };
}
