// Gift card codes and amounts (DESIGN §7.3, decision 045): imports nothing but money.ts, so the web app takes them
// from the zod-free entry (constants.ts).
import { currencyExponent } from './money.ts';

/**
 * Crockford's base32: 32 characters without I, L, O and U, so 16 of them carry 80 random bits; what people type is
 * read leniently (lower case, spaces and dashes, O for 0, I and L for 1).
 */
export const GIFT_CARD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const GIFT_CARD_CODE_LENGTH = 16;

/** A code as typed ("abcd-efgh ijkl-mnop", "O" for zero) in its stored form, or null when it cannot be a code. */
export function normalizeGiftCardCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== GIFT_CARD_CODE_LENGTH) return null;
  return [...code].every((c) => GIFT_CARD_ALPHABET.includes(c)) ? code : null;
}

/** A code as people read it: four groups of four ("7K2M-9QXD-4TRA-HV1E"). */
export const formatGiftCardCode = (code: string): string => code.match(/.{1,4}/g)?.join('-') ?? code;

/**
 * What a gift card may be sold for in a currency, in its minor units: three presets and a range for an amount of the
 * buyer's own (25, 50, 100 and 5 to 500 units of it; in a currency without minor units, such as the yen, a hundred
 * times that).
 */
export function giftCardAmounts(currency: string): { presets: number[]; minCents: number; maxCents: number } {
  const exponent = currencyExponent(currency);
  const unit = exponent >= 2 ? 10 ** exponent : 100;
  return { presets: [25, 50, 100].map((n) => n * unit), minCents: 5 * unit, maxCents: 500 * unit };
}
