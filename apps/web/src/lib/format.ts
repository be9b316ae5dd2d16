import {
  currencySymbol as symbolOf,
  formatMoney as formatAmount,
  formatMoneyShort as formatAmountShort,
  minorToText,
} from '@cinema/contract/constants';
import { useTranslation } from './i18n';
import { currentLanguage } from './i18n';
import { cinemaCurrency, useSettings } from './settings';

/**
 * The locale dates and numbers are written in: the browser's own (en-GB, de-AT…) when it speaks the chosen language,
 * else the chosen language itself.
 */
export function displayLocale(): string {
  const language = currentLanguage();
  const browser = typeof navigator === 'undefined' ? undefined : navigator.language;
  return browser && browser.split('-')[0]?.toLowerCase() === language ? browser : language;
}

type When = string | number | Date;

/** A timestamp in the viewer's language and time zone (or `timeZone`). */
export const formatDateTime = (when: When, options: Intl.DateTimeFormatOptions = {}) =>
  new Date(when).toLocaleString(displayLocale(), { dateStyle: 'medium', timeStyle: 'short', ...options });

export const formatTime = (when: When, options: Intl.DateTimeFormatOptions = {}) =>
  new Date(when).toLocaleTimeString(displayLocale(), { timeStyle: 'short', ...options });

export const formatDate = (when: When, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
  new Date(when).toLocaleDateString(displayLocale(), options);

export const formatNumber = (value: number, options?: Intl.NumberFormatOptions) =>
  value.toLocaleString(displayLocale(), options);

/**
 * Minor units of the cinema's currency (GET /api/settings `currency`), or of `currency`, in the viewer's language.
 * English keeps the spec's form, "$12.00" (en-US) whatever the browser's region.
 */
export function formatMoney(cents: number, currency: string = cinemaCurrency()): string {
  return formatAmount(cents, { currency: currency.toUpperCase(), locale: moneyLocale() });
}

/** The locale money is written in: the viewer's language, English as en-US ("$12.00"). */
function moneyLocale(): string {
  const language = currentLanguage();
  return language === 'en' ? 'en-US' : language;
}

/** A change of an amount, signed: "+$8.33", "−$25.00" (a true minus sign), "$0.00". */
export function formatMoneyChange(cents: number, currency: string = cinemaCurrency()): string {
  return `${cents > 0 ? '+' : cents < 0 ? '−' : ''}${formatMoney(Math.abs(cents), currency)}`;
}

/** Minor units of the cinema's currency, short ("$4.4K", "4360,5 €"): a chart axis's labels, in a phone's width. */
export function formatMoneyShort(cents: number, currency: string = cinemaCurrency()): string {
  return formatAmountShort(cents, { currency: currency.toUpperCase(), locale: moneyLocale() });
}

/** `formatMoney` for a component: renders again when the language changes or the cinema's currency arrives. */
export function useFormatMoney(): (cents: number, currency?: string) => string {
  useTranslation();
  useSettings();
  return formatMoney;
}

/** The cinema currency's symbol in the viewer's language ("$", "€", "¥"): the unit of a field that takes an amount. */
export function currencySymbol(currency: string = cinemaCurrency()): string {
  return symbolOf(currency.toUpperCase(), moneyLocale());
}

/**
 * What a number field for an amount of the cinema's currency accepts: steps of its smallest amount ("0.01" for
 * dollars, "1" for yen, "0.001" for dinars), from that amount up to `maxCents`.
 */
export function moneyFieldProps(maxCents: number, currency: string = cinemaCurrency()) {
  const step = minorToText(1, currency);
  return { step, min: step, max: minorToText(maxCents, currency) };
}
