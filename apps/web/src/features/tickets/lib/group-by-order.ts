import type { Order, Ticket } from '@cinema/contract';

/** Tickets of one order (`ref` null: tickets bought before orders had references), with the order when known. */
export interface OrderGroup {
  ref: string | null;
  order: Order | null;
  tickets: Ticket[];
}

/**
 * The tickets grouped by the order they were bought in, in the tickets' own order (upcoming first); orders with a
 * refund but no ticket left, or with food and drink alone, come last, so neither disappears from the page.
 */
export function groupByOrder(tickets: readonly Ticket[], orders: readonly Order[]): OrderGroup[] {
  const byRef = new Map(orders.map((o) => [o.ref, o]));
  const groups = new Map<string | null, OrderGroup>();
  for (const ticket of tickets) {
    const ref = ticket.orderRef ?? null;
    let group = groups.get(ref);
    if (!group) groups.set(ref, (group = { ref, order: (ref && byRef.get(ref)) || null, tickets: [] }));
    group.tickets.push(ticket);
  }
  // Orders of food and drink alone (their QR code hands them over at the bar) come last too.
  const refundedOnly = orders
    .filter(
      (o) =>
        !groups.has(o.ref) &&
        (o.refunds.length > 0 || (o.products ?? []).some((p) => p.status === 'confirmed')),
    )
    .map((o) => ({ ref: o.ref, order: o, tickets: [] }));
  // Tickets without an order go after those with one.
  const listed = [...groups.values()].sort((a, b) => Number(a.ref === null) - Number(b.ref === null));
  return [...listed, ...refundedOnly];
}
