// Money by the currency's exponent. An amount is an integer in the minor unit of the cinema's CURRENCY everywhere
// (cents of USD and EUR, yen of JPY, which has no smaller unit, fils of KWD, a thousandth of a dinar); people type and
// read it in the major unit. This is the one place that converts between the two: the server (CSV, emails, PDFs,
// the test checkout) and the web app (forms, screens) both use it. It imports nothing.

/**
 * ISO 4217's minor units that are not hundredths; every other currency has two decimals. A table, not Intl's
 * `maximumFractionDigits`: those are CLDR's display habits and differ between ICU versions (Node 20 says HUF, COP,
 * IDR and PKR have none, where ISO 4217 and payment providers count two), while a stored integer must mean the same
 * amount on the server and in every browser.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** How many decimals the currency's minor unit has (ISO 4217): JPY 0, USD and EUR 2, KWD 3. */
export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

/** As a number field writes an amount: digits and one '.', optionally negative (HTML's floating-point number). */
const AMOUNT_TEXT = /^(-)?(\d*)(?:\.(\d*))?$/;

/**
 * An amount in the major unit as an integer of minor units: `toMinor('12.5', 'USD')` → 1250, `toMinor('1200',
 * 'JPY')` → 1200, `toMinor('1.25', 'KWD')` → 1250; null when it is not an amount or is too large to count exactly.
 *
 * Text is read as a number field writes it, whatever the viewer's language: digits and "." for decimals, no
 * grouping, no symbol ("1,200" is refused: 1200 to some readers, 1.2 to others) and never rounded (12.345 dollars or
 * 12.5 yen is null; trailing zeros are fine). A number is a computed amount: rounded half away from zero to the minor
 * unit on its decimal digits, so 1.005 dollars is 101 cents, not the 100 that `Math.round(1.005 * 100)` gives.
 */
export function toMinor(amount: string | number, currency: string): number | null {
  const exponent = currencyExponent(currency);
  let text: string;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    text = String(amount);
    // Shortest decimal form, exponential below 1e-6 (no minor unit is that small) and from 1e21 (none is that big).
    if (text.includes('e-')) return 0;
    if (text.includes('e')) return null;
  } else text = amount.trim();
  const parts = AMOUNT_TEXT.exec(text);
  if (!parts || (!parts[2] && !parts[3])) return null;
  const [, minus, whole = '', fraction = ''] = parts;
  let minor = Number(whole + fraction.slice(0, exponent).padEnd(exponent, '0'));
  const beyond = fraction.slice(exponent);
  if (/[1-9]/.test(beyond)) {
    if (typeof amount === 'string') return null;
    if (beyond[0]! >= '5') minor += 1;
  }
  if (!Number.isSafeInteger(minor)) return null;
  return minus && minor !== 0 ? -minor : minor;
}

/** Minor units as a number of major units (for a chart's scale, never to store): 1250 cents → 12.5. */
export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** currencyExponent(currency);
}

/**
 * Minor units as plain text in the major unit, as a number field and a CSV cell hold it: 1250 → "12.50" (USD),
 * 1200 → "1200" (JPY), 1250 → "1.250" (KWD); `minorToText(1, currency)` is the smallest amount, a field's step.
 */
export function minorToText(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not an amount in minor units: ${minor}`);
  const exponent = currencyExponent(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

interface MoneyFormatOptions {
  currency?: string;
  locale?: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** The decimals the locale usually writes for the currency (CLDR), never more than its minor unit has. */
function usualDecimals(currency: string, locale: string): number {
  const usual = numberFormat(locale, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  return Math.min(usual ?? 2, currencyExponent(currency));
}

/**
 * Minor units of `currency` as money in `locale`: 1200 → "$12.00" (USD), "¥1,200" (JPY), "12,00 €" (EUR, de-DE),
 * "KWD 1.250" (KWD). The locale's usual decimals, unless they would hide part of the amount. The locale defaults
 * to en-US; the web app passes the viewer's language.
 */
export function formatMoney(
  minor: number,
  { currency = 'USD', locale = 'en-US' }: MoneyFormatOptions = {},
): string {
  const exponent = currencyExponent(currency);
  const usual = usualDecimals(currency, locale);
  const decimals = minor % 10 ** (exponent - usual) === 0 ? usual : exponent;
  return numberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(fromMinor(minor, currency));
}

/** Minor units as short money ("$4.4K", "4360,5 €", "¥120K"): a chart axis's labels, in a phone's width. */
export function formatMoneyShort(
  minor: number,
  { currency = 'USD', locale = 'en-US' }: MoneyFormatOptions = {},
): string {
  return numberFormat(locale, {
    style: 'currency',
    currency,
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(fromMinor(minor, currency));
}

/** The currency's symbol in `locale` ("$", "€", "¥"): the unit of a field that takes an amount. */
export function currencySymbol(currency: string, locale = 'en-US'): string {
  const parts = numberFormat(locale, { style: 'currency', currency }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? currency;
}
