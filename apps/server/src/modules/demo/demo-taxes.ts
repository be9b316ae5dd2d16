import { count } from 'drizzle-orm';
import { currencyExponent, percentToBp } from '@cinema/contract';
import type { Db } from '../../db/database.ts';
import { bookingFees, taxRates } from '../../db/schema/index.ts';

/**
 * Rates a cinema in this currency might charge (DESIGN §7.4): in euros the German split (tickets 7%, food, drink and
 * fees 19%), in pounds 20% on everything, in yen 10%, elsewhere tickets 7% and food and drink 8%.
 */
export function demoTaxRates(currency: string): { ticket: number; product: number; fee: number } {
  switch (currency) {
    case 'EUR':
      return { ticket: 7, product: 19, fee: 19 };
    case 'GBP':
      return { ticket: 20, product: 20, fee: 20 };
    case 'JPY':
      return { ticket: 10, product: 10, fee: 10 };
    default:
      return { ticket: 7, product: 8, fee: 7 };
  }
}

/**
 * On a cinema without rates or fees: the demo's tax rates and an online booking fee of 0.75 a ticket (100 where the
 * currency has no minor unit), not refundable; none at the counter. Returns whether it set them.
 */
export async function seedDemoTaxes(db: Db, currency: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [rates] = await tx.select({ n: count() }).from(taxRates);
    const [fees] = await tx.select({ n: count() }).from(bookingFees);
    if (rates!.n > 0 || fees!.n > 0) return false;
    const r = demoTaxRates(currency);
    await tx.insert(taxRates).values([
      { kind: 'TICKET', rateBp: percentToBp(r.ticket) },
      { kind: 'PRODUCT', rateBp: percentToBp(r.product) },
      { kind: 'FEE', rateBp: percentToBp(r.fee) },
    ]);
    const exponent = currencyExponent(currency);
    await tx.insert(bookingFees).values([
      {
        channel: 'ONLINE',
        perTicketCents: exponent === 0 ? 100 : Math.round(0.75 * 10 ** exponent),
        refundable: false,
      },
      { channel: 'COUNTER' },
    ]);
    return true;
  });
}
