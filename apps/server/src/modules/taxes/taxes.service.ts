import { eq, inArray, sql } from 'drizzle-orm';
import {
  bpToPercent,
  percentToBp,
  type BookingFee,
  type Fees,
  type Taxes,
  type TaxesBody,
  type TaxKind,
  type TaxMode,
} from '@cinema/contract';
import { runTogether, type Db, type Queryable } from '../../db/database.ts';
import {
  bookingFees,
  productCategories,
  products,
  taxRates,
  taxSettings,
  ticketTypes,
} from '../../db/schema/index.ts';
import { badRequest } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';

/** The rates and mode pricing reads (DESIGN §7.4): the most precise rate for a line, 0% where none is set. */
export interface TaxBook {
  mode: TaxMode;
  rateOf(kind: 'TICKET' | 'FEE'): number;
  rateOfProduct(product: { id: string; categoryId: string }): number;
}

/** The tax mode in force: the one chosen at /admin/taxes, else `TAX_MODE`. */
async function modeInForce(q: Queryable, defaultMode: TaxMode) {
  const [row] = await q.select({ mode: taxSettings.mode }).from(taxSettings).limit(1);
  return row
    ? { mode: row.mode, from: 'admin' as const }
    : { mode: defaultMode, from: 'environment' as const };
}

/** Loads the rates and mode for pricing an order. */
export async function loadTaxBook(q: Queryable, defaultMode: TaxMode): Promise<TaxBook> {
  const [{ mode }, rates] = await runTogether(q, [
    () => modeInForce(q, defaultMode),
    () => q.select().from(taxRates),
  ] as const);
  const general = (kind: TaxKind) =>
    rates.find((r) => r.kind === kind && !r.productId && !r.categoryId)?.rateBp ?? 0;
  const products = general('PRODUCT');
  return {
    mode,
    rateOf: (kind) => general(kind),
    rateOfProduct: (p) =>
      rates.find((r) => r.productId === p.id)?.rateBp ??
      rates.find((r) => r.categoryId === p.categoryId)?.rateBp ??
      products,
  };
}

/** `GET /api/admin/taxes`: the mode and every rate, with the names of the products and categories they are for. */
export async function getTaxes(db: Queryable, defaultMode: TaxMode): Promise<Taxes> {
  // saveTaxes reads them in its transaction: one query at a time there (runTogether).
  const [{ mode, from }, rates] = await runTogether(db, [
    () => modeInForce(db, defaultMode),
    () =>
      db
        .select({
          kind: taxRates.kind,
          productId: taxRates.productId,
          productName: products.name,
          categoryId: taxRates.categoryId,
          categoryName: productCategories.name,
          rateBp: taxRates.rateBp,
        })
        .from(taxRates)
        .leftJoin(products, eq(products.id, taxRates.productId))
        .leftJoin(productCategories, eq(productCategories.id, taxRates.categoryId))
        .orderBy(
          sql`array_position(array['TICKET', 'PRODUCT', 'FEE'], ${taxRates.kind})`,
          sql`${taxRates.productId} is not null`,
          sql`${taxRates.categoryId} is not null`,
          productCategories.name,
          products.name,
        ),
  ] as const);
  return {
    mode,
    modeFrom: from,
    rates: rates.map((r) => ({
      kind: r.kind,
      ...(r.productId && { productId: r.productId, productName: r.productName ?? '' }),
      ...(r.categoryId && { category: r.categoryId, categoryName: r.categoryName ?? '' }),
      ratePercent: bpToPercent(r.rateBp),
    })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `PUT /api/admin/taxes`: the mode (if given) and the rates, which replace every rate; audited with before and after.
 * 400 for a category or product that does not exist, a product rate with a category too, a product or category on a
 * ticket or fee rate, or one scope given twice. Orders already made keep the rates they were charged.
 */
export async function saveTaxes(db: Db, actor: Actor, body: TaxesBody, defaultMode: TaxMode): Promise<Taxes> {
  return db.transaction(async (tx) => {
    const before = await getTaxes(tx, defaultMode);
    const categories = await tx
      .select({ id: productCategories.id, name: productCategories.name })
      .from(productCategories);
    const productIds = [
      ...new Set(body.rates.flatMap((r) => (r.productId ? [r.productId.toLowerCase()] : []))),
    ];
    const known =
      productIds.length > 0
        ? await tx.select({ id: products.id }).from(products).where(inArray(products.id, productIds))
        : [];
    const rows = body.rates.map((r) => {
      if (r.kind !== 'PRODUCT' && (r.productId || r.category))
        throw badRequest('Only a food and drink rate names a product or category');
      if (r.productId && r.category) throw badRequest('A rate is for a product or a category, not both');
      let categoryId: string | null = null;
      if (r.category) {
        const wanted = r.category.toLowerCase();
        const found = categories.find(
          (c) => (UUID.test(wanted) && c.id === wanted) || c.name.toLowerCase() === wanted,
        );
        if (!found) throw badRequest('There is no such category');
        categoryId = found.id;
      }
      const productId = r.productId?.toLowerCase() ?? null;
      if (productId && !known.some((p) => p.id === productId)) throw badRequest('There is no such product');
      return { kind: r.kind, productId, categoryId, rateBp: percentToBp(r.ratePercent) };
    });
    const scopes = rows.map((r) => `${r.kind}:${r.productId ?? r.categoryId ?? ''}`);
    if (new Set(scopes).size !== scopes.length) throw badRequest('Each rate is set once');
    await tx.delete(taxRates);
    if (rows.length > 0) await tx.insert(taxRates).values(rows);
    if (body.mode) {
      await tx
        .insert(taxSettings)
        .values({ id: true, mode: body.mode })
        .onConflictDoUpdate({ target: taxSettings.id, set: { mode: body.mode, updatedAt: sql`now()` } });
    }
    const after = await getTaxes(tx, defaultMode);
    await recordAudit(tx, actor, { action: 'taxes.update', subjectType: 'taxes', before, after });
    return after;
  });
}

const NO_FEE: BookingFee = {
  perTicketCents: 0,
  perOrderCents: 0,
  exemptTicketTypeIds: [],
  refundable: false,
};

/** The booking fee where tickets are sold now: nothing until one is set. */
export async function loadFee(q: Queryable, channel: 'ONLINE' | 'COUNTER'): Promise<BookingFee> {
  const [row] = await q.select().from(bookingFees).where(eq(bookingFees.channel, channel));
  return row
    ? {
        perTicketCents: row.perTicketCents,
        perOrderCents: row.perOrderCents,
        exemptTicketTypeIds: row.exemptTicketTypeIds,
        refundable: row.refundable,
      }
    : NO_FEE;
}

/** `GET /api/admin/fees`. */
export async function getFees(q: Queryable): Promise<Fees> {
  const [online, counter] = await runTogether(q, [
    () => loadFee(q, 'ONLINE'),
    () => loadFee(q, 'COUNTER'),
  ] as const);
  return { online, counter };
}

/** `PUT /api/admin/fees`: both channels' fees, audited; 400 for a ticket type that does not exist. */
export async function saveFees(db: Db, actor: Actor, body: Fees): Promise<Fees> {
  return db.transaction(async (tx) => {
    const before = await getFees(tx);
    const asked = [
      ...new Set(
        [...body.online.exemptTicketTypeIds, ...body.counter.exemptTicketTypeIds].map((id) =>
          id.toLowerCase(),
        ),
      ),
    ];
    const found =
      asked.length > 0
        ? await tx.select({ id: ticketTypes.id }).from(ticketTypes).where(inArray(ticketTypes.id, asked))
        : [];
    if (found.length !== asked.length) throw badRequest('There is no such ticket type');
    for (const [channel, fee] of [
      ['ONLINE', body.online],
      ['COUNTER', body.counter],
    ] as const) {
      const values = {
        perTicketCents: fee.perTicketCents,
        perOrderCents: fee.perOrderCents,
        exemptTicketTypeIds: [...new Set(fee.exemptTicketTypeIds.map((id) => id.toLowerCase()))],
        refundable: fee.refundable,
      };
      await tx
        .insert(bookingFees)
        .values({ channel, ...values })
        .onConflictDoUpdate({ target: bookingFees.channel, set: { ...values, updatedAt: sql`now()` } });
    }
    const after = await getFees(tx);
    await recordAudit(tx, actor, { action: 'fees.update', subjectType: 'fees', before, after });
    return after;
  });
}
