import i18next, { type TFunction, type TOptions } from 'i18next';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { rowLabel, SUBTITLES_PREFIX } from '@cinema/contract';
import { z } from 'zod';
import type { $ZodErrorMap } from 'zod/v4/core';
import en from './locales/en/server.json' with { type: 'json' };
import es from './locales/es/server.json' with { type: 'json' };
import de from './locales/de/server.json' with { type: 'json' };

/** The languages the server writes messages, emails and PDFs in (the web app's, docs/decisions/026-languages.md). */
export const LANGUAGES = ['en', 'es', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (code: unknown): code is Language =>
  typeof code === 'string' && (LANGUAGES as readonly string[]).includes(code);

/** The language to write to a customer in: the one the request asked for, else the account's, else English. */
export const customerLanguage = (stored: unknown, asked?: Language): Language =>
  asked ?? (isLanguage(stored) ? stored : 'en');

const catalogues = { en, es, de };
const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { server: catalogues[l] }])),
  ns: ['server'],
  defaultNS: 'server',
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  interpolation: { escapeValue: false }, // emails escape their HTML themselves
  returnEmptyString: false,
});

const fixed = new Map(LANGUAGES.map((l) => [l, i18n.getFixedT(l, 'server')]));

/** The catalogue's texts in one language: `t('mail.hello', { name })`. */
export const textsIn = (language: Language): TFunction<'server'> => fixed.get(language)!;

/** The locale dates and money are written in: en-US for English (the spec's "$12.00"), else the language. */
export const localeOf = (language: Language): string => (language === 'en' ? 'en-US' : language);

export interface SeatPlace {
  row: number;
  number: number;
  rowLabel?: string | null;
}

/**
 * "Row C, Seat 7" in `language` (the hall's own row label when it has one); `lineItem`: "Row C Seat 7", English's
 * shorter form on payment lines and in messages that list seats.
 */
export const seatText = (
  seat: SeatPlace,
  language: Language,
  style: 'label' | 'lineItem' = 'label',
): string =>
  textsIn(language)(style === 'label' ? 'seat.label' : 'seat.lineItem', {
    row: seat.rowLabel ?? rowLabel(seat.row),
    number: seat.number,
  });

/**
 * A showtime's attributes as its badges read, "IMAX · Captioned · Subtitles: English"; empty without any.
 */
export const attributesText = (attributes: readonly string[], language: Language): string =>
  attributes
    .map((a) =>
      a.startsWith(SUBTITLES_PREFIX)
        ? textsIn(language)('attributes.SUBTITLES', {
            language:
              new Intl.DisplayNames([localeOf(language)], { type: 'language' }).of(
                a.slice(SUBTITLES_PREFIX.length).toLowerCase(),
              ) ?? a.slice(SUBTITLES_PREFIX.length),
          })
        : textsIn(language)(`attributes.${a}`, { defaultValue: a }),
    )
    .join(' · ');

/**
 * A catalogue error that names seats ("Already paid for: Row C Seat 7, Row C Seat 8"), written in any language with
 * the seats named in it too: for `AppError`'s `localized`, and `('en')` for its message.
 */
export const namingSeats =
  (key: string, seats: readonly SeatPlace[], values: TOptions = {}) =>
  (language: Language): string =>
    textsIn(language)(`errors.${key}`, {
      ...values,
      seats: seats.map((seat) => seatText(seat, language, 'lineItem')).join(', '),
    });

/**
 * The language a client asked for in Accept-Language ("de-AT,de;q=0.9,en;q=0.5"): the best-weighted one we speak,
 * matched on its primary subtag; English when none is.
 */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  let best: Language = 'en';
  let bestWeight = 0;
  for (const part of acceptLanguage.split(',', 20)) {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.find((p) => p.trim().startsWith('q='));
    const weight = q ? Number(q.trim().slice(2)) : 1;
    const primary = tag.split('-')[0]!.toLowerCase();
    if (isLanguage(primary) && weight > bestWeight) {
      best = primary;
      bestWeight = weight;
    }
  }
  return best;
}

// Messages a client is shown (the `error` of a JSON error) are written in English where they arise; the error
// handler finds the English text's catalogue entry (`errors.*`) and answers it in the client's language. A text
// with values ("Seats C7, C8 are taken") matches its template's pattern and keeps its values.
interface Template {
  key: string;
  pattern: RegExp;
  names: string[];
}
const exactKeys = new Map<string, string>();
const templates: Template[] = [];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const [key, text] of Object.entries(en.errors as Record<string, string>)) {
  const names: string[] = [];
  const parts = text.split(/\{\{(\w+)\}\}/);
  if (parts.length === 1) {
    exactKeys.set(text, key);
    continue;
  }
  const source = parts.map((part, i) => (i % 2 ? (names.push(part), '(.+?)') : escapeRegExp(part))).join('');
  templates.push({ key, pattern: new RegExp(`^${source}$`, 's'), names });
}
// The most literal template first: "Seat {{seat}} is taken" before "{{field}}: {{problem}}".
const literalLength = (t: Template) => t.pattern.source.replace(/\(\.\+\?\)/g, '').length;
templates.sort((a, b) => literalLength(b) - literalLength(a));

/** The catalogue entry of an English message, with the values a template found in it; undefined when it has none. */
export function catalogueEntryOf(message: string): { key: string; values: TOptions } | undefined {
  const key = exactKeys.get(message);
  if (key) return { key, values: {} };
  for (const { key, pattern, names } of templates) {
    const match = pattern.exec(message);
    if (!match) continue;
    const values: TOptions = {};
    names.forEach((name, i) => (values[name] = match[i + 1]));
    // Plural forms (`x_one`/`x_other`) are chosen by `count`, a number.
    const plural = /_(one|other)$/.exec(key);
    if (plural) values.count = Number(values.count);
    return { key: plural ? key.slice(0, plural.index) : key, values };
  }
  return undefined;
}

/** An English message of the catalogue in `language`; a message the catalogue lacks stays as it is. */
export function translateMessage(message: string, language: Language): string {
  if (language === 'en') return message;
  const entry = catalogueEntryOf(message);
  return entry ? textsIn(language)(`errors.${entry.key}`, entry.values) : message;
}

// A request zod refuses names the first problem: in the schema's own English words (`min(1, 'Choose a seat')`),
// which the catalogue has, or in zod's default text ("Too small: expected string to have >=1 characters"), which
// zod itself says in Spanish and German. An issue carries its input (the validator's `reportInput`) so "received
// string" can be said again.
const zodTexts = { en: z.locales.en(), es: z.locales.es(), de: z.locales.de() };
const zodText = (issue: ValidationIssue, language: Language): string | undefined => {
  try {
    const text = zodTexts[language].localeError(issue as unknown as Parameters<$ZodErrorMap>[0]);
    return typeof text === 'string' ? text : text?.message;
  } catch {
    return undefined; // an issue without the fields its text needs: not zod's default text
  }
};

/** A zod issue: its code and message, and the fields of its code (`minimum`, `input`, …). */
export interface ValidationIssue {
  code: string;
  message: string;
}

/** A validation issue's message in `language`. */
export function issueText(issue: ValidationIssue, language: Language): string {
  if (language === 'en') return issue.message;
  if (issue.message === zodText(issue, 'en')) return zodText(issue, language) ?? issue.message;
  return translateMessage(issue.message, language);
}

/** The language a client asked for, or undefined when it sent no Accept-Language (a script, another client). */
export const askedLanguage = (request: FastifyRequest): Language | undefined =>
  request.headers['accept-language'] ? request.language : undefined;

/** A socket's language: the web app's choice (`auth.language`), else the browser's Accept-Language. */
export const socketLanguage = (socket: {
  handshake: { auth: Record<string, unknown>; headers: Record<string, string | string[] | undefined> };
}): Language => {
  const chosen = socket.handshake.auth.language;
  if (isLanguage(chosen)) return chosen;
  const header = socket.handshake.headers['accept-language'];
  return languageOf(Array.isArray(header) ? header[0] : header);
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The language the client asked for (Accept-Language), for its messages. */
    readonly language: Language;
  }
}

/** `request.language`, read from Accept-Language when first asked for. */
export const i18nPlugin = fp(
  async function i18nPlugin(app: FastifyInstance) {
    app.decorateRequest('language', {
      getter() {
        return languageOf(this.headers['accept-language']);
      },
    });
  },
  { name: 'i18n' },
);
