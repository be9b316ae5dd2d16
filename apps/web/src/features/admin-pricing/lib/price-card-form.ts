import type { CreatePriceCardBody, PriceCard, SeatType } from '@cinema/contract';
import { minorToText } from '@cinema/contract/constants';
import { displayLocale } from '../../../lib/format';
import { typedAmount } from './amount-input';
import { i18n } from '../../../lib/i18n';

/** 2026-11-30 was a Monday: its week names the weekdays in the viewer's language. */
const weekdayName = (day: number, weekday: 'short' | 'long') =>
  new Date(Date.UTC(2026, 10, 29 + day, 12)).toLocaleDateString(displayLocale(), {
    weekday,
    timeZone: 'UTC',
  });

/** ISO weekdays (Monday 1 … Sunday 7) with their short and full names ("Mon", "Monday") in the viewer's language. */
export const weekdays = () =>
  [1, 2, 3, 4, 5, 6, 7].map((day) => ({
    day,
    short: weekdayName(day, 'short'),
    name: weekdayName(day, 'long'),
  }));

/**
 * A price card as its form holds it: prices as typed in the currency's major unit, keyed `${ticketTypeId}|${seatType}`.
 */
export interface PriceCardDraft {
  name: string;
  weekdays: number[];
  from: string;
  to: string;
  prices: Record<string, string>;
  /** The attribute whose showtimes the card prices (3D, IMAX); '' for any showtime. */
  attribute: string;
}

export const priceKey = (ticketTypeId: string, seatType: SeatType) => `${ticketTypeId}|${seatType}`;

export const emptyDraft = (): PriceCardDraft => ({
  name: '',
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  from: '00:00',
  to: '24:00',
  prices: {},
  attribute: '',
});

/** A saved card as its form shows it, prices in the major unit of `currency` ("12.50" dollars, "1200" yen). */
export function draftOf(card: PriceCard, currency: string): PriceCardDraft {
  return {
    name: card.name,
    weekdays: [...card.weekdays].sort((a, b) => a - b),
    from: card.from,
    to: card.to,
    attribute: card.attribute ?? '',
    prices: Object.fromEntries(
      card.prices.map((p) => [priceKey(p.ticketTypeId, p.seatType), minorToText(p.priceCents, currency)]),
    ),
  };
}

/**
 * The draft as the API takes it, or what is wrong with it: a blank price means the ticket type is not sold on that
 * seat type; "24:00" is the end of the day (the time input cannot show it, so an end of "00:00" means it too).
 */
export function bodyOf(
  draft: PriceCardDraft,
  currency: string,
): { body: CreatePriceCardBody } | { error: string } {
  const name = draft.name.trim();
  if (!name) return { error: i18n.t('admin:priceCard.errors.name') };
  if (draft.weekdays.length === 0) return { error: i18n.t('admin:priceCard.errors.days') };
  const from = draft.from;
  const to = draft.to === '00:00' ? '24:00' : draft.to;
  if (!/^\d\d:\d\d$/.test(from) || !/^\d\d:\d\d$/.test(to))
    return { error: i18n.t('admin:priceCard.errors.times') };
  if (from >= to) return { error: i18n.t('admin:priceCard.errors.window') };
  const prices: CreatePriceCardBody['prices'] = [];
  for (const [key, text] of Object.entries(draft.prices)) {
    if (text.trim() === '') continue;
    const amount = typedAmount(text, currency);
    if (amount && 'error' in amount) return amount;
    if (!amount || amount.cents < 0) return { error: i18n.t('admin:priceCard.errors.notPrice', { text }) };
    const [ticketTypeId, seatType] = key.split('|') as [string, SeatType];
    prices.push({ ticketTypeId, seatType, priceCents: amount.cents });
  }
  if (prices.length === 0) return { error: i18n.t('admin:priceCard.errors.noPrice') };
  return {
    body: {
      name,
      weekdays: [...draft.weekdays].sort((a, b) => a - b),
      from,
      to,
      prices,
      // PUT replaces the whole card: a card without an attribute is for any showtime again.
      ...(draft.attribute && { attribute: draft.attribute }),
    },
  };
}

/** "Mon–Fri", "Sat, Sun", "Every day": a card's days as people write them. */
export function weekdaysInWords(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 7) return i18n.t('admin:priceCard.everyDay');
  const runs: number[][] = [];
  for (const d of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === d - 1) run.push(d);
    else runs.push([d]);
  }
  const short = (d: number) => weekdayName(d, 'short');
  return runs
    .map((r) => (r.length >= 3 ? `${short(r[0]!)}–${short(r.at(-1)!)}` : r.map(short).join(', ')))
    .join(', ');
}
