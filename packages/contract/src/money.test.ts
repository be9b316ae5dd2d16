import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyExponent,
  currencySymbol,
  formatMoney,
  formatMoneyShort,
  fromMinor,
  minorToText,
  toMinor,
} from './money.ts';

describe('the exponent of a currency (ISO 4217)', () => {
  it('is 0 for yen, 2 for dollars and euros, 3 for dinars, whatever the case of the code', () => {
    expect(['JPY', 'USD', 'EUR', 'KWD', 'jpy', 'GBP', 'ISK', 'BHD'].map(currencyExponent)).toEqual([
      0, 2, 2, 3, 0, 2, 0, 3,
    ]);
  });

  it('does not follow the ICU of the machine where Intl disagrees with ISO 4217', () => {
    // Node 20's ICU writes forints without decimals; the forint still has 100 fillér, as Stripe counts it.
    expect(currencyExponent('HUF')).toBe(2);
    expect(currencyExponent('IQD')).toBe(3);
  });
});

describe('amounts typed in the major unit, as minor units', () => {
  it.each([
    ['12.5', 'USD', 1250],
    ['12.50', 'EUR', 1250],
    ['9.99', 'USD', 999],
    ['0.01', 'USD', 1],
    ['.5', 'USD', 50],
    ['15', 'USD', 1500],
    [' 13.50 ', 'USD', 1350],
    ['1200', 'JPY', 1200],
    ['1200.00', 'JPY', 1200],
    ['500', 'JPY', 500],
    ['1.25', 'KWD', 1250],
    ['1.250', 'KWD', 1250],
    ['0.005', 'KWD', 5],
    ['0', 'USD', 0],
    ['-3.20', 'USD', -320],
    ['4.35', 'USD', 435],
    ['1.005', 'KWD', 1005],
  ])('%j %s is %i', (text, currency, minor) => {
    expect(toMinor(text, currency)).toBe(minor);
  });

  it('refuses more decimals than the currency has instead of rounding them away', () => {
    expect(toMinor('12.345', 'USD')).toBeNull();
    expect(toMinor('1.005', 'USD')).toBeNull();
    expect(toMinor('12.5', 'JPY')).toBeNull();
    expect(toMinor('1.2345', 'KWD')).toBeNull();
  });

  it('refuses grouping, symbols, decimal commas and what is not a number', () => {
    for (const text of [
      '1,200',
      '12,50',
      '$12',
      '12 €',
      '1 200',
      '1e3',
      '',
      ' ',
      '.',
      '-',
      'abc',
      'NaN',
      '+5',
      '--1',
    ])
      expect(toMinor(text, 'USD'), text).toBeNull();
    expect(toMinor('1,200', 'JPY')).toBeNull();
  });

  it('refuses an amount too large to count exactly', () => {
    expect(toMinor('90071992547409.91', 'USD')).toBe(9_007_199_254_740_991);
    expect(toMinor('90071992547409.92', 'USD')).toBeNull();
    expect(toMinor(1e21, 'JPY')).toBeNull();
  });
});

describe('computed amounts, rounded to the minor unit', () => {
  it('rounds half away from zero on the decimal digits, not on the binary fraction', () => {
    expect(1.005 * 100).toBeLessThan(100.5); // why Math.round(x * 100) is wrong
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(toMinor(4.35, 'USD')).toBe(435);
    expect(toMinor(0.1 + 0.2, 'USD')).toBe(30);
    expect(toMinor(12.345, 'USD')).toBe(1235);
    expect(toMinor(-12.345, 'USD')).toBe(-1235);
    expect(toMinor(12.4, 'JPY')).toBe(12);
    expect(toMinor(12.5, 'JPY')).toBe(13);
    expect(toMinor(1.2345, 'KWD')).toBe(1235);
    expect(toMinor(1e-7, 'USD')).toBe(0);
    expect(toMinor(Number.NaN, 'USD')).toBeNull();
    expect(toMinor(Number.POSITIVE_INFINITY, 'USD')).toBeNull();
  });

  it('comes back from the major unit to the same minor units, in every exponent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.constantFrom('JPY', 'USD', 'EUR', 'KWD', 'CLF'),
        (minor, currency) => {
          expect(toMinor(fromMinor(minor, currency), currency)).toBe(minor);
          expect(toMinor(minorToText(minor, currency), currency)).toBe(minor);
        },
      ),
    );
  });
});

describe('minor units as plain text (form fields, CSV)', () => {
  it('writes the major unit with exactly the currency’s decimals', () => {
    expect(minorToText(1250, 'USD')).toBe('12.50');
    expect(minorToText(5, 'EUR')).toBe('0.05');
    expect(minorToText(-320, 'USD')).toBe('-3.20');
    expect(minorToText(1200, 'JPY')).toBe('1200');
    expect(minorToText(1250, 'KWD')).toBe('1.250');
    expect(minorToText(0, 'KWD')).toBe('0.000');
  });

  it('gives a field its step: the smallest amount of the currency', () => {
    expect(['JPY', 'USD', 'KWD'].map((c) => minorToText(1, c))).toEqual(['1', '0.01', '0.001']);
  });

  it('refuses what is not a whole number of minor units', () => {
    expect(() => minorToText(12.5, 'USD')).toThrow(RangeError);
  });
});

describe('money as people read it', () => {
  it('shows cents as dollars with two decimals', () => {
    expect([1200, 1350, 2500, 5, 0, 123_456].map((cents) => formatMoney(cents))).toEqual([
      '$12.00',
      '$13.50',
      '$25.00',
      '$0.05',
      '$0.00',
      '$1,234.56',
    ]);
  });

  it('shows yen without decimals, euros in German and dinars with three decimals', () => {
    expect(formatMoney(1200, { currency: 'JPY' })).toBe('¥1,200');
    expect(formatMoney(500, { currency: 'JPY' })).toBe('¥500');
    expect(formatMoney(1250, { currency: 'EUR', locale: 'de-DE' })).toBe('12,50\u00a0€');
    expect(formatMoney(1200, { currency: 'EUR' })).toBe('€12.00');
    expect(formatMoney(1250, { currency: 'KWD' })).toBe('KWD\u00a01.250');
    expect(formatMoney(1200, { currency: 'jpy', locale: 'de-DE' })).toBe('1.200\u00a0¥');
  });

  it('keeps the locale’s usual decimals unless they would hide part of the amount', () => {
    // The Iraqi dinar has 1000 fils, which nobody writes: a whole dinar shows none, a fraction shows all three.
    expect(formatMoney(5_000_000, { currency: 'IQD' })).toBe('IQD\u00a05,000');
    expect(formatMoney(5_000_500, { currency: 'IQD' })).toBe('IQD\u00a05,000.500');
  });

  it('writes a chart axis short and names the symbol of a field', () => {
    expect(formatMoneyShort(440_000)).toBe('$4.4K');
    expect(formatMoneyShort(120_000, { currency: 'JPY' })).toBe('¥120K');
    expect(currencySymbol('JPY')).toBe('¥');
    expect(currencySymbol('EUR', 'de')).toBe('€');
  });
});
