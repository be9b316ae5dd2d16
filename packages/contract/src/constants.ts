// The contract's plain values and functions: limits, event names, the password policy, readers of error bodies
// and the formatters of seats and money. This file imports nothing (no zod), so the web app takes its values from
// here ('@cinema/contract/constants') and only types from '@cinema/contract'. The zod schemas build on the same
// definitions: one rule, one place.

// The seat rules (single-seat gaps, best available, sofas and companions) import nothing either.
export * from './seat-rules/index.ts';
// So does the door's admission rule (the entry window and how far a scanning device's clock is believed).
export * from './door-rules.ts';
// And money by the currency's exponent: to and from minor units, formatting.
export * from './money.ts';
export * from './gift-card-codes.ts';
// And taxes: a line's tax, a receipt's tax by rate.
export * from './tax-rules.ts';
// And the cinema's clock: its days, weekdays, weeks and times of day, and the instants they name.
export * from './cinema-clock.ts';

// ---------------------------------------------------------------------------------------------------------------
// Prices

/** What `GET /api/showtimes/{id}/prices` answers, as the helpers below read it. */
interface PricesOnSeats {
  ticketTypes: { id: string; name: string }[];
  defaultTicketTypeId: string | null;
  prices: { ticketTypeId: string; seatType: string }[];
}

/** The ticket types a seat of this type is sold as (a price left blank on the card: not sold there), in order. */
export const ticketTypesOn = <T extends PricesOnSeats>(prices: T, seatType: string): T['ticketTypes'] =>
  prices.ticketTypes.filter((t) =>
    prices.prices.some((p) => p.ticketTypeId === t.id && p.seatType === seatType),
  );

/** The type a seat sells as when none is chosen: the default one where it is sold on that seat, else the first. */
export function defaultTicketTypeOn(prices: PricesOnSeats, seatType: string): string | null {
  const offered = ticketTypesOn(prices, seatType);
  return (offered.find((t) => t.id === prices.defaultTicketTypeId) ?? offered[0])?.id ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Catalogue

/** Amounts in minor units of the cinema's currency (money.ts): 1200 is $12.00, ¥1,200 or 1.200 KWD. */
export const DEFAULT_PRICE_CENTS = 1200;
export const MAX_PRICE_CENTS = 100_000;
/** The largest amount a promo code may take off an order. */
export const MAX_AMOUNT_OFF_CENTS = MAX_PRICE_CENTS * 10;
export const MAX_POSTER_BYTES = 5 * 1024 * 1024;
/** Minutes of cleaning between two showtimes of one hall; a movie of unknown length counts as 120 minutes. */
export const CLEANING_MINUTES = 15;
export const DEFAULT_DURATION_MINUTES = 120;
/** Page size of the manage list when `page` is given; the answer's `X-Total-Count` header counts every match. */
export const MANAGE_PAGE_SIZE = 50;
/** The longest range a recurring batch of showtimes may cover, and the most showtimes it may create. */
export const BATCH_MAX_DAYS = 92;
export const BATCH_MAX_SHOWTIMES = 600;

// ---------------------------------------------------------------------------------------------------------------
// Seats and payments

export const MAX_SEATS_PER_HOLD = 10;
/** Seat types as a customer reads them: in a seat's accessible name, the legend, tickets. */
export const SEAT_TYPE_NAMES = {
  STANDARD: 'standard seat',
  PREMIUM: 'premium seat',
  SOFA: 'sofa seat',
  WHEELCHAIR: 'wheelchair space',
  COMPANION: 'companion seat',
} as const;
/** The single-seat gap rule in force (`SEAT_GAP_RULE`): warn (default), enforce or off. */
export const SEAT_GAP_RULES = ['warn', 'enforce', 'off'] as const;
export const MAX_LIVE_HOLDS_PER_SHOWTIME = 10;
/** How long a customer has to pay once checkout starts (Stripe's shortest session life). */
export const PAYMENT_WINDOW_MINUTES = 30;

/** Socket.IO events. */
export const SOCKET_EVENTS = {
  joinShowtime: 'join_showtime',
  leaveShowtime: 'leave_showtime',
  seatsUpdate: 'seats_update',
  /**
   * Updates may have been missed (the server lost Redis, which carries them between its processes, and has it
   * back): every open seat map reads itself again. No payload.
   */
  seatsResync: 'seats_resync',
  /** Staff watch the kitchen's orders (`{token}`, acknowledged like join_showtime); `leave_kitchen` stops. */
  joinKitchen: 'join_kitchen',
  leaveKitchen: 'leave_kitchen',
  /** An order of the kitchen changed: `{ref}`. */
  kitchenUpdate: 'kitchen_update',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Accounts

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 72;

/** The kinds of character a password needs: the server's message when one is missing, the form's hint. */
export const PASSWORD_CHARACTER_RULES = [
  { pattern: /[A-Z]/, hint: 'One uppercase letter', message: 'Password must contain an uppercase letter' },
  { pattern: /[a-z]/, hint: 'One lowercase letter', message: 'Password must contain a lowercase letter' },
  { pattern: /[0-9]/, hint: 'One number', message: 'Password must contain a number' },
  { pattern: /[^A-Za-z0-9]/, hint: 'One symbol', message: 'Password must contain a symbol' },
] as const;

/** The password policy as the sign-up form's checklist: each rule's hint, and whether a password meets it. */
export const PASSWORD_RULES: readonly { hint: string; test: (password: string) => boolean }[] = [
  { hint: `At least ${PASSWORD_MIN_LENGTH} characters`, test: (p) => p.length >= PASSWORD_MIN_LENGTH },
  ...PASSWORD_CHARACTER_RULES.map((rule) => ({ hint: rule.hint, test: (p: string) => rule.pattern.test(p) })),
];

// ---------------------------------------------------------------------------------------------------------------
// Error bodies, read without a schema library

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The API's error envelope `{ error, code? }` in a response body, or null when the body is not one. */
export function readApiError(body: unknown): { error: string; code?: string } | null {
  if (!isRecord(body) || typeof body.error !== 'string') return null;
  if (body.code === undefined) return { error: body.error };
  return typeof body.code === 'string' ? { error: body.error, code: body.code } : null;
}

/** The showtime a refused one would overlap with, as a 409 `showtime_overlap` names it; null otherwise. */
export function readShowtimeClash(
  body: unknown,
): { id: string; movie: string; auditorium: string; startsAt: string; endsAt: string } | null {
  const clash = isRecord(body) ? body.clash : undefined;
  if (readApiError(body)?.code !== 'showtime_overlap' || !isRecord(clash)) return null;
  const { id, movie, auditorium, startsAt, endsAt } = clash;
  const fields = { id, movie, auditorium, startsAt, endsAt };
  return Object.values(fields).every((f) => typeof f === 'string')
    ? (fields as Record<keyof typeof fields, string>)
    : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting, the same in the web app and on the server's pages and line items

/** Rows are lettered in the hall: 1 → "A", 26 → "Z", 27 → "AA". */
export function rowLabel(row: number): string {
  let label = '';
  for (let n = row; n > 0; n = Math.floor((n - 1) / 26))
    label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
  return label;
}

const SEAT_LABEL_STYLES = {
  /** "Row C, Seat 7": tickets, lists, the scanner. */
  label: (row: string, n: number) => `Row ${row}, Seat ${n}`,
  /** "Row C, seat 7": inside a sentence, such as a seat button's "Row C, seat 7, available". */
  inline: (row: string, n: number) => `Row ${row}, seat ${n}`,
  /** "Row C Seat 7": checkout line items and the hosted payment page. */
  'line-item': (row: string, n: number) => `Row ${row} Seat ${n}`,
};
export type SeatLabelStyle = keyof typeof SEAT_LABEL_STYLES;

/**
 * A seat by its row's label and its number: "Row C, Seat 7" (see SeatLabelStyle for the other forms). The hall's own
 * label when the seat carries one (`rowLabel`), else the row lettered from its number.
 */
export function seatLabel(
  seat: { row: number; number: number; rowLabel?: string | null },
  { style = 'label' }: { style?: SeatLabelStyle } = {},
): string {
  return SEAT_LABEL_STYLES[style](seat.rowLabel ?? rowLabel(seat.row), seat.number);
}

/** The longest span a sales report covers, in days: a leap year, both ends included. */
export const REPORT_MAX_DAYS = 366;

// ---------------------------------------------------------------------------------------------------------------
// Showtime attributes (DESIGN §7.5)

/** Format, language, accessibility and audience of a showtime, in the order badges show them. */
export const SHOWTIME_FORMATS = ['2D', '3D', 'IMAX', '4DX', 'DOLBY_ATMOS'] as const;
export const SHOWTIME_LANGUAGES = ['ORIGINAL', 'DUBBED'] as const;
export const ACCESSIBLE_ATTRIBUTES = ['CAPTIONED', 'AUDIO_DESCRIBED', 'RELAXED'] as const;
export const AUDIENCE_ATTRIBUTES = ['PARENT_AND_BABY', 'SENIOR'] as const;
export const SHOWTIME_ATTRIBUTES = [
  ...SHOWTIME_FORMATS,
  ...SHOWTIME_LANGUAGES,
  ...ACCESSIBLE_ATTRIBUTES,
  ...AUDIENCE_ATTRIBUTES,
] as const;
/** Subtitles in a language: `SUBTITLES_` and its ISO 639-1 code (`SUBTITLES_EN`). */
export const SUBTITLES_PREFIX = 'SUBTITLES_';
export const SUBTITLES_PATTERN = /^SUBTITLES_[A-Z]{2}$/;

/** Attributes each once, in badge order: formats, language, subtitles, accessibility, audience. */
export function sortAttributes(attributes: readonly string[]): string[] {
  const rank = (a: string) => {
    const i = (SHOWTIME_ATTRIBUTES as readonly string[]).indexOf(a);
    if (i < 0) return SHOWTIME_FORMATS.length + SHOWTIME_LANGUAGES.length;
    return i < SHOWTIME_FORMATS.length + SHOWTIME_LANGUAGES.length ? i : i + 1;
  };
  return [...new Set(attributes)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Whether a showtime is an accessible screening: captioned, audio described or relaxed. */
export const isAccessibleScreening = (attributes: readonly string[]): boolean =>
  attributes.some((a) => (ACCESSIBLE_ATTRIBUTES as readonly string[]).includes(a));

// ---------------------------------------------------------------------------------------------------------------
// Movie details and age ratings (DESIGN §7.5)

/** Genres a movie may have (translated in the catalogues as `genres.<CODE>`). */
export const MOVIE_GENRES = [
  'ACTION',
  'ADVENTURE',
  'ANIMATION',
  'COMEDY',
  'CRIME',
  'DOCUMENTARY',
  'DRAMA',
  'FAMILY',
  'FANTASY',
  'HORROR',
  'MUSICAL',
  'MYSTERY',
  'ROMANCE',
  'SCIENCE_FICTION',
  'THRILLER',
  'WAR',
  'WESTERN',
] as const;
export type MovieGenre = (typeof MOVIE_GENRES)[number];
export const MAX_GENRES = 6;
export const MAX_CAST = 20;

/** A certificate of a rating system and the youngest age it admits (0: all ages; advisory ratings count as 0). */
export interface Certificate {
  code: string;
  minAge: number;
}

/**
 * The rating systems a cinema may work in (`RATING_SYSTEM`), each certificate with its minimum age: MPAA (United
 * States), BBFC (United Kingdom), FSK (Germany), ACB (Australia), ICAA (Spain).
 */
export const RATING_SYSTEMS = {
  MPAA: [
    { code: 'G', minAge: 0 },
    { code: 'PG', minAge: 0 },
    { code: 'PG-13', minAge: 0 },
    { code: 'R', minAge: 17 },
    { code: 'NC-17', minAge: 18 },
  ],
  BBFC: [
    { code: 'U', minAge: 0 },
    { code: 'PG', minAge: 0 },
    { code: '12A', minAge: 0 },
    { code: '12', minAge: 12 },
    { code: '15', minAge: 15 },
    { code: '18', minAge: 18 },
    { code: 'R18', minAge: 18 },
  ],
  FSK: [
    { code: 'FSK 0', minAge: 0 },
    { code: 'FSK 6', minAge: 6 },
    { code: 'FSK 12', minAge: 12 },
    { code: 'FSK 16', minAge: 16 },
    { code: 'FSK 18', minAge: 18 },
  ],
  ACB: [
    { code: 'G', minAge: 0 },
    { code: 'PG', minAge: 0 },
    { code: 'M', minAge: 0 },
    { code: 'MA15+', minAge: 15 },
    { code: 'R18+', minAge: 18 },
  ],
  ICAA: [
    { code: 'A', minAge: 0 },
    { code: '7', minAge: 7 },
    { code: '12', minAge: 12 },
    { code: '16', minAge: 16 },
    { code: '18', minAge: 18 },
  ],
} as const satisfies Record<string, readonly Certificate[]>;
export type RatingSystem = keyof typeof RATING_SYSTEMS;
export const RATING_SYSTEM_NAMES = Object.keys(RATING_SYSTEMS) as [RatingSystem, ...RatingSystem[]];

const ratingKey = (rating: string) => rating.trim().toUpperCase().replace(/\s+/g, ' ');

/** A rating as a certificate of the system ("fsk 18" → FSK 18, 18+), or null when the system has no such one. */
export function certificateOf(system: RatingSystem, rating: string | null | undefined): Certificate | null {
  if (!rating) return null;
  const key = ratingKey(rating);
  return RATING_SYSTEMS[system].find((c) => c.code === key) ?? null;
}

/** Whether two ratings name the same certificate ("fsk 18" and "FSK 18"). */
export const sameRating = (a: string, b: string): boolean => ratingKey(a) === ratingKey(b);

/** The youngest age admitted to a film of this rating, when it has an age rule (over 0); else null. */
export const minAgeOf = (system: RatingSystem, rating: string | null | undefined): number | null =>
  certificateOf(system, rating)?.minAge || null;
