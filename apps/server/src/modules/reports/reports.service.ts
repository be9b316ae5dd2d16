// Sales reports (DESIGN §6.4): admits by ticket type, gross, discounts, refunds, net, occupancy of sellable seats and
// check-in rate, by day, movie or showtime. A sale counts on its showtime's day on the cinema's clocks.
import { sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  type ConcessionSales,
  dayStart,
  localDayTime,
  minorToText,
  type SalesFigures,
  type SalesReport,
  type SalesReportQuery,
  type SalesReportRow,
} from '@cinema/contract';
import { queryRows, runTogether, type Queryable } from '../../db/database.ts';
import { cell } from './csv.ts';

/** Showtimes whose figures one statement computes and keeps. */
const KEEP_BATCH = 500;
/**
 * Up to this many showtimes (those sold since the last report, say), a statement that keeps figures looks each line's
 * refunds up by its key; more (the first report of a year) sum every refund once (decision 027).
 */
const LOOKUP_BATCH = 50;

/** The name a line sold before ticket types existed is reported under. */
export const UNTYPED_TICKET = 'Unspecified';

interface ShowtimeRow {
  id: string;
  starts_at: Date | string;
  movie_id: string;
  title: string;
  hall_name: string;
  sellable: number | string;
}

interface SalesRow {
  showtime_id: string;
  ticket_type: string | null;
  admits: number | string;
  checked_in: number | string;
  gross: number | string;
  discounts: number | string;
  refunds: number | string;
  due: number | string;
  tax: number | string;
  fees: number | string;
  fee_tax: number | string;
}

/** A food and drink line still paid for, with the showtime of its order's tickets (none when sold alone). */
interface ConcessionRow {
  showtime_id: string | null;
  paid_at: Date | string;
  product_id: string;
  product: string;
  category: string;
  quantity: number | string;
  price_cents: number | string;
  tax_cents: number | string;
}

/** The ticket figures summed: a showtime's of one ticket type, or a group's. */
interface TicketSums {
  admits: number;
  checkedIn: number;
  gross: number;
  discounts: number;
  refunds: number;
  due: number;
  tax: number;
  fees: number;
  feeTax: number;
}

const noSums = (): TicketSums => ({
  admits: 0,
  checkedIn: 0,
  gross: 0,
  discounts: 0,
  refunds: 0,
  due: 0,
  tax: 0,
  fees: 0,
  feeTax: 0,
});

interface Accumulator extends TicketSums {
  admitsByType: Map<string, number>;
  sellable: number;
  showtimes: number;
  items: number;
  concession: number;
  concessionTax: number;
}

// Object.assign, not a spread into a literal: these are made per showtime and ticket type, and a spread of an object
// into another costs several times more.
const empty = (): Accumulator =>
  Object.assign(noSums(), {
    admitsByType: new Map<string, number>(),
    sellable: 0,
    showtimes: 0,
    items: 0,
    concession: 0,
    concessionTax: 0,
  });

/** A showtime's figures of one ticket type, as numbers. */
interface Sales extends TicketSums {
  /** The name the lines were sold under (null: before ticket types, or booking fees). */
  sold: string | null;
  /** What the report calls it. */
  ticketType: string;
}

/**
 * Rows of figures by showtime, summed by the name their lines were sold under (as a `group by` of the two would);
 * the driver gives sums as text, read as numbers once here.
 */
function byShowtime(rows: SalesRow[]): Map<string, Sales[]> {
  const out = new Map<string, Sales[]>();
  for (const r of rows) {
    let list = out.get(r.showtime_id);
    if (!list) out.set(r.showtime_id, (list = []));
    let s = list.find((x) => x.sold === r.ticket_type);
    if (!s) {
      s = Object.assign(noSums(), { sold: r.ticket_type, ticketType: r.ticket_type ?? UNTYPED_TICKET });
      list.push(s);
    }
    s.admits += Number(r.admits);
    s.checkedIn += Number(r.checked_in);
    s.gross += Number(r.gross);
    s.discounts += Number(r.discounts);
    s.refunds += Number(r.refunds);
    s.due += Number(r.due);
    s.tax += Number(r.tax);
    s.fees += Number(r.fees);
    s.feeTax += Number(r.fee_tax);
  }
  return out;
}

/** Adds a showtime (its sellable seats and its figures by ticket type) to a group's or the totals' sums. */
function add(acc: Accumulator, sellable: number, sales: Sales[] | undefined) {
  acc.showtimes += 1;
  acc.sellable += sellable;
  for (const s of sales ?? []) {
    acc.tax += s.tax;
    acc.fees += s.fees;
    acc.feeTax += s.feeTax;
    // A row of booking fees only (no ticket type, nothing admitted or sold) adds no ticket figures.
    if (s.admits === 0 && s.gross === 0) continue;
    acc.admitsByType.set(s.ticketType, (acc.admitsByType.get(s.ticketType) ?? 0) + s.admits);
    acc.admits += s.admits;
    acc.checkedIn += s.checkedIn;
    acc.gross += s.gross;
    acc.discounts += s.discounts;
    acc.refunds += s.refunds;
    acc.due += s.due;
  }
}

/**
 * The report. The span's figures are kept per showtime first (only those sold, refunded or checked in since they were
 * last kept are computed), then two statements read the span's showtimes with their sellable seats and their kept
 * figures per showtime and ticket type; the grouping is done here, over at most a few thousand showtimes.
 */
export async function salesReport(
  db: Queryable,
  opts: { timeZone: string; currency: string; includeTestSales: boolean },
  query: Pick<SalesReportQuery, 'from' | 'to' | 'groupBy'>,
): Promise<SalesReport> {
  const start = dayStart(query.from, opts.timeZone);
  const end = dayStart(addDays(query.to, 1), opts.timeZone);

  const from = start.toISOString();
  const until = end.toISOString();
  await refreshKeptFigures(db, from, until);

  const [showtimeRows, salesByShowtime, typeRows, foodRows] = await runTogether(db, [
    () =>
      queryRows<ShowtimeRow>(
        db,
        sql`select st.id, st.starts_at, st.movie_id, m.title, h.name as hall_name, se.sellable
          from showtimes st
          join movies m on m.id = st.movie_id
          join halls h on h.id = st.hall_id
          -- The seats of the span's halls only, each hall counted once (the planner memoizes by hall): counting every
          -- hall's seats cost the embedded engine 1.4 against 0.8 ms once the cinema had more halls (decision 030).
          cross join lateral (
            select count(*) as sellable from seats
            where seats.hall_id = st.hall_id and not blocked and retired_at is null
          ) se
          where st.starts_at >= ${from} and st.starts_at < ${until}
          order by st.starts_at, h.name`,
      ),
    () => salesOf(db, from, until, opts.includeTestSales),
    () => queryRows<{ name: string; position: number }>(db, sql`select name, position from ticket_types`),
    () => concessionsOf(db, from, until, opts.includeTestSales),
  ] as const);

  // Ticket types in the admin's order (by position), then any other name a line was sold under, by name.
  const position = new Map(typeRows.map((t) => [t.name, Number(t.position)]));
  // A row of booking fees only (no ticket type, nothing admitted or sold) names no ticket type.
  const sold = new Set<string>();
  for (const list of salesByShowtime.values())
    for (const s of list) if (s.admits > 0 || s.gross > 0) sold.add(s.ticketType);
  const typeNames = [...sold].sort(
    (a, b) =>
      (position.get(a) ?? Number.MAX_SAFE_INTEGER) - (position.get(b) ?? Number.MAX_SAFE_INTEGER) ||
      a.localeCompare(b),
  );

  type Head = Pick<SalesReportRow, 'key' | 'label' | 'movieTitle' | 'startsAt' | 'hallName'>;
  const groups = new Map<string, { head: Head; acc: Accumulator }>();
  // The group of each showtime, for its food and drink below.
  const groupOfShowtime = new Map<string, string>();
  const totals = empty();
  const dayRow = (date: string): Head => ({
    key: date,
    label: date,
    movieTitle: null,
    startsAt: null,
    hallName: null,
  });
  for (const st of showtimeRows) {
    const startsAt = new Date(st.starts_at).toISOString();
    // The showtime's day and time on the cinema's clocks, read as the span's bounds are.
    const local = localDayTime(startsAt, opts.timeZone);
    const key = query.groupBy === 'day' ? local.date : query.groupBy === 'movie' ? st.movie_id : st.id;
    groupOfShowtime.set(st.id, key);
    let group = groups.get(key);
    if (!group) {
      const head =
        query.groupBy === 'day'
          ? dayRow(local.date)
          : query.groupBy === 'movie'
            ? { key, label: st.title, movieTitle: st.title, startsAt: null, hallName: null }
            : {
                key,
                label: `${st.title} · ${local.date} ${local.time} · ${st.hall_name}`,
                movieTitle: st.title,
                startsAt,
                hallName: st.hall_name,
              };
      group = { head, acc: empty() };
      groups.set(key, group);
    }
    const sellable = Number(st.sellable);
    const sales = salesByShowtime.get(st.id);
    add(group.acc, sellable, sales);
    add(totals, sellable, sales);
  }

  // Food and drink: with its tickets' showtime (its group), or alone on the day it was paid (that day's group, made
  // when the day had no showtime; in no movie or showtime group, in the totals only).
  for (const f of foodRows) {
    let key = f.showtime_id ? groupOfShowtime.get(f.showtime_id) : undefined;
    if (!f.showtime_id && query.groupBy === 'day') {
      key = localDayTime(new Date(f.paid_at).toISOString(), opts.timeZone).date;
      if (!groups.has(key)) groups.set(key, { head: dayRow(key), acc: empty() });
    }
    const group = key === undefined ? undefined : groups.get(key);
    for (const acc of group ? [group.acc, totals] : [totals]) {
      acc.items += Number(f.quantity);
      acc.concession += Number(f.price_cents);
      acc.concessionTax += Number(f.tax_cents);
    }
  }

  // Each row is written whole, in the order of the contract's fields (the JSON is written from it as it is, see the
  // route): spreading the head and the figures into one object cost more than the rest of a 5,000-row report.
  const figures = (acc: Accumulator): SalesFigures => ({
    admitsByType: typeNames.map((ticketType) => ({
      ticketType,
      admits: acc.admitsByType.get(ticketType) ?? 0,
    })),
    admits: acc.admits,
    grossCents: acc.gross,
    discountCents: acc.discounts,
    refundCents: acc.refunds,
    dueCents: acc.due,
    netCents: acc.gross - acc.discounts - acc.refunds - acc.due,
    taxCents: acc.tax,
    netOfTaxCents: acc.gross - acc.discounts - acc.refunds - acc.due - acc.tax,
    feeCents: acc.fees,
    feeTaxCents: acc.feeTax,
    concessionTaxCents: acc.concessionTax,
    sellableSeats: acc.sellable,
    occupancy: acc.sellable > 0 ? acc.admits / acc.sellable : null,
    checkedIn: acc.checkedIn,
    checkInRate: acc.admits > 0 ? acc.checkedIn / acc.admits : null,
    showtimes: acc.showtimes,
    itemsSold: acc.items,
    concessionCents: acc.concession,
    concessionPerAdmitCents: acc.admits > 0 ? Math.round(acc.concession / acc.admits) : null,
  });

  const rows: SalesReportRow[] = [...groups.values()].map((g) => Object.assign(figures(g.acc), g.head));
  if (query.groupBy === 'movie')
    rows.sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
  if (query.groupBy === 'day') rows.sort((a, b) => a.key.localeCompare(b.key));
  return {
    from: query.from,
    to: query.to,
    groupBy: query.groupBy,
    timeZone: opts.timeZone,
    currency: opts.currency,
    testSales: opts.includeTestSales ? 'included' : 'excluded',
    rows,
    totals: figures(totals),
    concessions: concessionsBy(foodRows),
  };
}

/** The span's food and drink by product and by category, the most revenue first (then by name). */
function concessionsBy(rows: ConcessionRow[]): SalesReport['concessions'] {
  const products = new Map<string, ConcessionSales & { productId: string; category: string }>();
  const categories = new Map<string, ConcessionSales>();
  for (const r of rows) {
    // In the order of the contract's fields (the JSON is written as it is).
    const product = products.get(r.product_id) ?? {
      name: r.product,
      itemsSold: 0,
      revenueCents: 0,
      productId: r.product_id,
      category: r.category,
    };
    const category = categories.get(r.category) ?? { name: r.category, itemsSold: 0, revenueCents: 0 };
    for (const s of [product, category]) {
      s.itemsSold += Number(r.quantity);
      s.revenueCents += Number(r.price_cents);
    }
    products.set(r.product_id, product);
    categories.set(r.category, category);
  }
  const best = (a: ConcessionSales, b: ConcessionSales) =>
    b.revenueCents - a.revenueCents || a.name.localeCompare(b.name);
  return { byProduct: [...products.values()].sort(best), byCategory: [...categories.values()].sort(best) };
}

/**
 * The span's food and drink lines still paid for (refunded ones left out), each with the showtime of its order's
 * tickets (the seat it is brought to first): sold with tickets, a line counts when their showtime starts in the span;
 * sold alone, when it was paid in the span. Read live from the product lines (their own index), not kept.
 */
function concessionsOf(db: Queryable, from: string, until: string, includeTest: boolean) {
  return queryRows<ConcessionRow>(
    db,
    sql`select st.id as showtime_id, o.paid_at, l.product_id, p.name as product, c.name as category,
        l.quantity, l.price_cents, l.tax_cents
      from order_lines l
      join orders o on o.id = l.order_id
      join products p on p.id = l.product_id
      join product_categories c on c.id = p.category_id
      left join lateral (
        select b.showtime_id from order_lines t join bookings b on b.id = t.booking_id
        where t.order_id = l.order_id and t.booking_id is not null
        order by (b.id = o.deliver_booking_id) desc nulls last, b.id
        limit 1
      ) tk on true
      left join showtimes st on st.id = tk.showtime_id
      where l.product_id is not null and l.kind = 'PRODUCT' and l.result = 'confirmed'
        and o.paid_at is not null and o.status in ('PAID', 'REFUNDED', 'PARTLY_REFUNDED')
        and (${includeTest} or o.provider <> 'local')
        and case when st.id is null then o.paid_at >= ${from} and o.paid_at < ${until}
          else st.starts_at >= ${from} and st.starts_at < ${until} end`,
  );
}

/**
 * The paid lines of the given showtimes summed by showtime, ticket type and test mode (a sale through the test
 * payment provider): admits and check-ins of tickets that still admit, list prices, discounts and refunds.
 * `refunds`: 'summed' sums every refund of the database once and joins the sums (for many showtimes at once: the
 * first figures of a year), 'by line' looks each line's refunds up by its key (for a few showtimes: those sold since
 * the last report; summing a year's refunds for them cost more than the rest of the report, decision 027).
 */
function figuresOf(showtimeIds: SQL, refunds: 'summed' | 'by line'): SQL {
  const refunded =
    refunds === 'summed'
      ? sql`left join (
      select line_id, sum(amount_cents) as refunded from order_refunds
      where kind <> 'exchange' group by line_id
    ) r on r.line_id = l.id`
      : sql`left join lateral (
      select sum(amount_cents) as refunded from order_refunds
      where line_id = l.id and kind <> 'exchange'
    ) r on true`;
  // With prices before tax (`exclusive`), a line's gross is its list price and the tax added to it.
  return sql`select b.showtime_id, l.ticket_type_name as ticket_type, cs.provider = 'local' as test_mode,
      count(*) filter (where b.status = 'CONFIRMED') as admits,
      count(*) filter (where b.status = 'CONFIRMED' and b.checked_in_at is not null) as checked_in,
      sum(coalesce(l.list_price_cents, l.price_cents + l.discount_cents)
        + case when cs.tax_mode = 'exclusive' then l.tax_cents else 0 end) as gross,
      sum(l.discount_cents) as discounts,
      coalesce(sum(r.refunded), 0) as refunds,
      sum(l.due_cents) as due,
      coalesce(sum(l.tax_cents) filter (where l.result = 'confirmed'), 0) as tax,
      0 as fees, 0 as fee_tax
    from bookings b
    join order_lines l on l.booking_id = b.id
    join orders cs on cs.id = l.order_id
    ${refunded}
    where b.showtime_id in (${showtimeIds})
      and cs.paid_at is not null and cs.status in ('PAID', 'REFUNDED', 'PARTLY_REFUNDED')
    group by b.showtime_id, l.ticket_type_name, cs.provider = 'local'
    union all
    -- Booking fees kept, with the showtime each names (its order's first ticket's), found by an index of their own.
    select l.fee_showtime_id, null, cs.provider = 'local', 0, 0, 0, 0, 0, 0, 0, sum(l.price_cents), sum(l.tax_cents)
    from order_lines l
    join orders cs on cs.id = l.order_id
    where l.fee_showtime_id in (${showtimeIds}) and l.kind = 'FEE' and l.result = 'confirmed'
      and cs.paid_at is not null and cs.status in ('PAID', 'REFUNDED', 'PARTLY_REFUNDED')
    group by l.fee_showtime_id, cs.provider = 'local'`;
}

/** A list of ids as a one-column query (one parameter, whatever its length). */
const idList = (list: string[]) => sql`select unnest(${`{${list.join(',')}}`}::uuid[])`;

/**
 * The span's figures by showtime and ticket type: kept ones (still valid: no change their snapshot did not see) from
 * the kept rows, the others (changed since this report kept them) summed from their paid lines.
 */
async function salesOf(
  db: Queryable,
  from: string,
  until: string,
  includeTest: boolean,
): Promise<Map<string, Sales[]>> {
  // One statement says which showtimes are kept and reads their kept rows, so both come from one reading. The rows
  // (a showtime's ticket types, in test mode or not, and its booking fees) are summed by ticket type here: grouping
  // a year's 15,000 rows in the statement (a sort, and numeric sums) took longer than reading them.
  const rows = await queryRows<SalesRow & { kept: boolean }>(
    db,
    sql`with span as materialized (
        select st.id, c.showtime_id is not null and not exists (
            select 1 from sales_report_changes x
            where x.showtime_id = c.showtime_id and not pg_visible_in_snapshot(x.xid, c.snapshot)
          ) as kept
        from showtimes st left join sales_report_showtimes c on c.showtime_id = st.id
        where st.starts_at >= ${from} and st.starts_at < ${until}
      )
      select span.id as showtime_id, span.kept, k.ticket_type, k.admits, k.checked_in, k.gross, k.discounts,
        k.refunds, k.due, k.tax, k.fees, k.fee_tax
      from span
      left join sales_report_lines k
        on span.kept and k.showtime_id = span.id and (${includeTest} or not k.test_mode)`,
  );
  const fromKept = rows.filter((r) => r.kept && r.admits !== null);
  const live = rows.filter((r) => !r.kept).map((r) => r.showtime_id);
  const fromLines =
    live.length === 0
      ? []
      : await queryRows<SalesRow>(
          db,
          sql`select f.showtime_id, f.ticket_type, sum(f.admits) as admits, sum(f.checked_in) as checked_in,
              sum(f.gross) as gross, sum(f.discounts) as discounts, sum(f.refunds) as refunds, sum(f.due) as due,
              sum(f.tax) as tax, sum(f.fees) as fees, sum(f.fee_tax) as fee_tax
            from (${figuresOf(idList(live), 'by line')}) f
            where ${includeTest} or not f.test_mode
            group by f.showtime_id, f.ticket_type`,
        );
  return byShowtime([...fromKept, ...fromLines]);
}

/**
 * Keeps the figures of the span's showtimes, over or still on sale: drops kept figures a later change made stale,
 * computes the missing ones in one statement per batch (its snapshot is stored with them), and forgets the changes
 * every kept figure has seen. Two reports at once compute a showtime once (the second skips it). A report of the
 * coming days thus computes only the showtimes sold or refunded since the last one, not every sold seat (decision 028).
 */
export async function refreshKeptFigures(db: Queryable, from: string, until: string): Promise<void> {
  await db.execute(sql`delete from sales_report_showtimes c using showtimes st
    where st.id = c.showtime_id and st.starts_at >= ${from} and st.starts_at < ${until}
      and exists (
        select 1 from sales_report_changes x
        where x.showtime_id = c.showtime_id and not pg_visible_in_snapshot(x.xid, c.snapshot)
      )`);
  for (;;) {
    const todo = await queryRows<{ id: string }>(
      db,
      sql`select st.id from showtimes st
        where st.starts_at >= ${from} and st.starts_at < ${until}
          and not exists (select 1 from sales_report_showtimes c where c.showtime_id = st.id)
        order by st.starts_at
        limit ${KEEP_BATCH}`,
    );
    if (todo.length === 0) break;
    // One statement: the figures and the snapshot stored with them are the same reading.
    await db.execute(sql`with kept as (
        insert into sales_report_showtimes (showtime_id, snapshot)
        select id, pg_current_snapshot() from (${idList(todo.map((t) => t.id))}) t(id)
        on conflict do nothing
        returning showtime_id
      )
      insert into sales_report_lines
        (showtime_id, ticket_type, test_mode, admits, checked_in, gross, discounts, refunds, due, tax, fees, fee_tax)
      select * from (${figuresOf(sql`select showtime_id from kept`, todo.length > LOOKUP_BATCH ? 'summed' : 'by line')}) f`);
    if (todo.length < KEEP_BATCH) break;
  }
  await db.execute(sql`delete from sales_report_changes x using sales_report_showtimes c, showtimes st
    where x.showtime_id = c.showtime_id and st.id = c.showtime_id
      and st.starts_at >= ${from} and st.starts_at < ${until}
      and pg_visible_in_snapshot(x.xid, c.snapshot)`);
}

const percent = (ratio: number | null) => (ratio === null ? null : (ratio * 100).toFixed(1));

/**
 * The report as CSV: a header row, a row per group, and a totals row. Money in the currency's major unit with its
 * decimals (12.50 dollars, 1200 yen), rates in percent.
 */
export function salesReportCsv(report: SalesReport): string {
  const money = (minor: number) => minorToText(minor, report.currency);
  const types = report.totals.admitsByType.map((t) => t.ticketType);
  const groupHeading = { day: 'Day', movie: 'Movie', showtime: 'Showtime' }[report.groupBy];
  const header = [
    groupHeading,
    ...(report.groupBy === 'showtime' ? ['Starts at', 'Hall'] : []),
    'Showtimes',
    ...types.map((t) => `Admits: ${t}`),
    'Admits',
    'Gross',
    'Discounts',
    'Refunds',
    'To collect',
    'Net',
    'Sellable seats',
    'Occupancy %',
    'Checked in',
    'Check-in rate %',
    'Items sold',
    'Concessions',
    'Concessions per admit',
    'Tax',
    'Net of tax',
    'Booking fees',
    'Booking fee tax',
    'Concessions tax',
  ];
  const line = (label: string, extra: (string | null)[], f: SalesFigures) =>
    [
      cell(label, true),
      ...(report.groupBy === 'showtime' ? extra.map((x) => cell(x, true)) : []),
      ...[
        f.showtimes,
        ...f.admitsByType.map((t) => t.admits),
        f.admits,
        money(f.grossCents),
        money(f.discountCents),
        money(f.refundCents),
        money(f.dueCents),
        money(f.netCents),
        f.sellableSeats,
        percent(f.occupancy),
        f.checkedIn,
        percent(f.checkInRate),
        f.itemsSold,
        money(f.concessionCents),
        f.concessionPerAdmitCents === null ? null : money(f.concessionPerAdmitCents),
        money(f.taxCents),
        money(f.netOfTaxCents),
        money(f.feeCents),
        money(f.feeTaxCents),
        money(f.concessionTaxCents),
      ].map((x) => cell(x)),
    ].join(',');
  return (
    [
      header.map((h) => cell(h, true)).join(','),
      ...report.rows.map((r) =>
        line(
          report.groupBy === 'showtime' ? (r.movieTitle ?? r.label) : r.label,
          [r.startsAt, r.hallName],
          r,
        ),
      ),
      line('Total', [null, null], report.totals),
      // Food and drink by product and by category, each a table of its own after a blank line.
      ...(report.concessions.byProduct.length === 0
        ? []
        : [
            '',
            'Category,Product,Items sold,Revenue',
            ...report.concessions.byProduct.map((p) =>
              [
                cell(p.category, true),
                cell(p.name, true),
                cell(p.itemsSold),
                cell(money(p.revenueCents)),
              ].join(','),
            ),
            '',
            'Category,Items sold,Revenue',
            ...report.concessions.byCategory.map((c) =>
              [cell(c.name, true), cell(c.itemsSold), cell(money(c.revenueCents))].join(','),
            ),
          ]),
    ].join('\r\n') + '\r\n'
  );
}
