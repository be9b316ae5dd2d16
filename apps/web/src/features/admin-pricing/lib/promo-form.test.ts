import { describe, expect, it } from 'vitest';
import { discountInWords, emptyPromoDraft, promoBodyOf, usesInWords } from './promo-form';

describe('promo code form', () => {
  it('sends a percentage or an amount in cents, the limits given, and the narrowest scope', () => {
    expect(
      promoBodyOf(
        { ...emptyPromoDraft(), code: ' spring-10 ', value: '10', maxUses: '100', movieId: 'm' },
        'USD',
      ),
    ).toEqual({ body: { code: 'SPRING-10', percentOff: 10, maxUses: 100, movieId: 'm' } });
    expect(
      promoBodyOf(
        {
          ...emptyPromoDraft(),
          code: 'FIVE',
          kind: 'amount',
          value: '2.5',
          maxUsesPerCustomer: '1',
          movieId: 'm',
          showtimeId: 's',
        },
        'USD',
      ),
    ).toEqual({ body: { code: 'FIVE', amountOffCents: 250, maxUsesPerCustomer: 1, showtimeId: 's' } });
  });

  it('reads the dates in the viewer’s time and refuses an end before the start', () => {
    const ok = promoBodyOf(
      {
        ...emptyPromoDraft(),
        code: 'DATED',
        value: '5',
        validFrom: '2026-12-01T00:00',
        validTo: '2026-12-31T23:59',
      },
      'USD',
    );
    expect(ok).toEqual({
      body: {
        code: 'DATED',
        percentOff: 5,
        validFrom: new Date(2026, 11, 1, 0, 0).toISOString(),
        validTo: new Date(2026, 11, 31, 23, 59).toISOString(),
      },
    });
    expect(
      promoBodyOf(
        {
          ...emptyPromoDraft(),
          code: 'DATED',
          value: '5',
          validFrom: '2026-12-31T00:00',
          validTo: '2026-12-01T00:00',
        },
        'USD',
      ),
    ).toEqual({ error: 'The end must come after the start' });
  });

  it('refuses what the server would', () => {
    expect(promoBodyOf({ ...emptyPromoDraft(), code: 'no spaces', value: '5' }, 'USD')).toHaveProperty(
      'error',
    );
    expect(promoBodyOf({ ...emptyPromoDraft(), code: 'OK1', value: '101' }, 'USD')).toEqual({
      error: 'A percentage is a whole number from 1 to 100',
    });
    expect(promoBodyOf({ ...emptyPromoDraft(), code: 'OK1', kind: 'amount', value: '0' }, 'USD')).toEqual({
      error: 'Give the amount off, at least $0.01',
    });
    expect(promoBodyOf({ ...emptyPromoDraft(), code: 'OK1', value: '5', maxUses: '1.5' }, 'USD')).toEqual({
      error: 'Limits are whole numbers from 1',
    });
  });

  it('takes the amount off in the currency’s major unit, with no more decimals than it has', () => {
    const amount = (value: string, currency: string) =>
      promoBodyOf({ ...emptyPromoDraft(), code: 'OFF', kind: 'amount', value }, currency);
    expect(amount('300', 'JPY')).toEqual({ body: { code: 'OFF', amountOffCents: 300 } });
    expect(amount('2.50', 'EUR')).toEqual({ body: { code: 'OFF', amountOffCents: 250 } });
    expect(amount('0.5', 'KWD')).toEqual({ body: { code: 'OFF', amountOffCents: 500 } });
    expect(amount('2.5', 'JPY')).toEqual({ error: '“2.5”: the smallest amount in JPY is ¥1' });
    expect(amount('2.505', 'USD')).toEqual({ error: '“2.505”: the smallest amount in USD is $0.01' });
    expect(amount('0', 'JPY')).toEqual({ error: 'Give the amount off, at least ¥1' });
  });

  it('says a code’s discount and uses', () => {
    expect(discountInWords({ percentOff: 20, amountOffCents: null })).toBe('20% off');
    expect(discountInWords({ percentOff: null, amountOffCents: 300 })).toBe('$3.00 off');
    expect(usesInWords({ uses: 12, maxUses: 100 })).toBe('12 of 100 used');
    expect(usesInWords({ uses: 3, maxUses: null })).toBe('3 used');
  });
});
