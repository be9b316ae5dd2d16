import type { CreatePriceCardBody, PriceCard, SeatType } from '@cinema/contract';

/** ISO weekdays (Monday 1 … Sunday 7) with their short and full names. */
export const WEEKDAYS = [
  { day: 1, short: 'Mon', name: 'Monday' },
  { day: 2, short: 'Tue', name: 'Tuesday' },
  { day: 3, short: 'Wed', name: 'Wednesday' },
  { day: 4, short: 'Thu', name: 'Thursday' },
  { day: 5, short: 'Fri', name: 'Friday' },
  { day: 6, short: 'Sat', name: 'Saturday' },
  { day: 7, short: 'Sun', name: 'Sunday' },
] as const;

/** A price card as its form holds it: prices as the dollars typed, keyed `${ticketTypeId}|${seatType}`. */
export interface PriceCardDraft {
  name: string;
  weekdays: number[];
  from: string;
  to: string;
  prices: Record<string, string>;
}

export const priceKey = (ticketTypeId: string, seatType: SeatType) => `${ticketTypeId}|${seatType}`;

export const emptyDraft = (): PriceCardDraft => ({
  name: '',
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  from: '00:00',
  to: '24:00',
  prices: {},
});

const dollars = (cents: number) => (cents / 100).toFixed(2);

export function draftOf(card: PriceCard): PriceCardDraft {
  return {
    name: card.name,
    weekdays: [...card.weekdays].sort((a, b) => a - b),
    from: card.from,
    to: card.to,
    prices: Object.fromEntries(
      card.prices.map((p) => [priceKey(p.ticketTypeId, p.seatType), dollars(p.priceCents)]),
    ),
  };
}

/**
 * The draft as the API takes it, or what is wrong with it: a blank price means the ticket type is not sold on that
 * seat type; "24:00" is the end of the day (the time input cannot show it, so an end of "00:00" means it too).
 */
export function bodyOf(draft: PriceCardDraft): { body: CreatePriceCardBody } | { error: string } {
  const name = draft.name.trim();
  if (!name) return { error: 'Give the card a name' };
  if (draft.weekdays.length === 0) return { error: 'Choose at least one day' };
  const from = draft.from;
  const to = draft.to === '00:00' ? '24:00' : draft.to;
  if (!/^\d\d:\d\d$/.test(from) || !/^\d\d:\d\d$/.test(to)) return { error: 'Give the times as HH:MM' };
  if (from >= to) return { error: 'The window must end after it starts' };
  const prices: CreatePriceCardBody['prices'] = [];
  for (const [key, text] of Object.entries(draft.prices)) {
    if (text.trim() === '') continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) return { error: `“${text}” is not a price` };
    const cents = Math.round(value * 100);
    if (Math.abs(cents - value * 100) > 1e-6) return { error: `“${text}”: prices are in whole cents` };
    const [ticketTypeId, seatType] = key.split('|') as [string, SeatType];
    prices.push({ ticketTypeId, seatType, priceCents: cents });
  }
  if (prices.length === 0) return { error: 'A price card needs at least one price' };
  return {
    body: { name, weekdays: [...draft.weekdays].sort((a, b) => a - b), from, to, prices },
  };
}

/** "Mon–Fri", "Sat, Sun", "Every day": a card's days as people write them. */
export function weekdaysInWords(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 7) return 'Every day';
  const runs: number[][] = [];
  for (const d of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === d - 1) run.push(d);
    else runs.push([d]);
  }
  const short = (d: number) => WEEKDAYS[d - 1]!.short;
  return runs
    .map((r) => (r.length >= 3 ? `${short(r[0]!)}–${short(r.at(-1)!)}` : r.map(short).join(', ')))
    .join(', ');
}
