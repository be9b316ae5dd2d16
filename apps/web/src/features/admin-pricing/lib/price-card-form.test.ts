import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, emptyDraft, priceKey, weekdaysInWords } from './price-card-form';

describe('price card form', () => {
  it('turns typed dollars into cents and leaves blank prices out', () => {
    const draft = {
      ...emptyDraft(),
      name: ' Matinee ',
      weekdays: [5, 1, 2],
      from: '10:00',
      to: '17:00',
      prices: {
        [priceKey('a', 'STANDARD')]: '9.5',
        [priceKey('a', 'PREMIUM')]: '',
        [priceKey('c', 'STANDARD')]: '0',
      },
    };
    expect(bodyOf(draft, 'USD')).toEqual({
      body: {
        name: 'Matinee',
        weekdays: [1, 2, 5],
        from: '10:00',
        to: '17:00',
        prices: [
          { ticketTypeId: 'a', seatType: 'STANDARD', priceCents: 950 },
          { ticketTypeId: 'c', seatType: 'STANDARD', priceCents: 0 },
        ],
      },
    });
  });

  it('reads an end of 00:00 as the end of the day and refuses what the server would', () => {
    const ok = bodyOf(
      {
        ...emptyDraft(),
        name: 'Late',
        from: '22:00',
        to: '00:00',
        prices: { 'a|STANDARD': '8' },
      },
      'USD',
    );
    expect('body' in ok && ok.body.to).toBe('24:00');
    expect(bodyOf({ ...emptyDraft(), name: '', prices: { 'a|STANDARD': '8' } }, 'USD')).toEqual({
      error: 'Give the card a name',
    });
    expect(
      bodyOf({ ...emptyDraft(), name: 'X', weekdays: [], prices: { 'a|STANDARD': '8' } }, 'USD'),
    ).toEqual({
      error: 'Choose at least one day',
    });
    expect(
      bodyOf(
        { ...emptyDraft(), name: 'X', from: '18:00', to: '10:00', prices: { 'a|STANDARD': '8' } },
        'USD',
      ),
    ).toEqual({
      error: 'The window must end after it starts',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X' }, 'USD')).toEqual({
      error: 'A price card needs at least one price',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X', prices: { 'a|STANDARD': '-1' } }, 'USD')).toEqual({
      error: '“-1” is not a price',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X', prices: { 'a|STANDARD': '1.005' } }, 'USD')).toEqual({
      error: '“1.005”: the smallest amount in USD is $0.01',
    });
  });

  it('round-trips a saved card', () => {
    const card = {
      id: 'p',
      name: 'Standard',
      weekdays: [7, 6],
      from: '00:00',
      to: '24:00',
      prices: [{ ticketTypeId: 'a', seatType: 'SOFA' as const, priceCents: 1250 }],
    };
    const draft = draftOf(card, 'USD');
    expect(draft.prices).toEqual({ 'a|SOFA': '12.50' });
    expect(bodyOf(draft, 'USD')).toEqual({
      body: { name: 'Standard', weekdays: [6, 7], from: '00:00', to: '24:00', prices: card.prices },
    });
  });

  it('takes prices in the currency’s major unit: whole yen, dinars to the fils', () => {
    const priced = (text: string, currency: string) =>
      bodyOf({ ...emptyDraft(), name: 'X', prices: { 'a|STANDARD': text } }, currency);
    const cents = (text: string, currency: string) => {
      const result = priced(text, currency);
      return 'body' in result ? result.body.prices[0]!.priceCents : result.error;
    };
    expect(cents('1200', 'JPY')).toBe(1200);
    expect(cents('12.50', 'EUR')).toBe(1250);
    expect(cents('1.250', 'KWD')).toBe(1250);
    expect(cents('1200.5', 'JPY')).toBe('“1200.5”: the smallest amount in JPY is ¥1');
    expect(cents('1,200', 'JPY')).toBe('“1,200” is not a price');
    const card = {
      id: 'p',
      name: 'Yen',
      weekdays: [1],
      from: '00:00',
      to: '24:00',
      prices: [{ ticketTypeId: 'a', seatType: 'STANDARD' as const, priceCents: 1800 }],
    };
    expect(draftOf(card, 'JPY').prices).toEqual({ 'a|STANDARD': '1800' });
    expect(draftOf(card, 'KWD').prices).toEqual({ 'a|STANDARD': '1.800' });
  });

  it('says the days as people write them', () => {
    expect(weekdaysInWords([1, 2, 3, 4, 5, 6, 7])).toBe('Every day');
    expect(weekdaysInWords([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(weekdaysInWords([6, 7])).toBe('Sat, Sun');
    expect(weekdaysInWords([1, 3, 4, 5, 7])).toBe('Mon, Wed–Fri, Sun');
  });

  it('keeps a card for one attribute (3D, IMAX) and makes a card for any showtime again when cleared', () => {
    const card = {
      id: 'imax',
      name: 'IMAX',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      from: '00:00',
      to: '24:00',
      attribute: 'IMAX',
      prices: [{ ticketTypeId: 'a', seatType: 'STANDARD' as const, priceCents: 1900 }],
    };
    const draft = draftOf(card, 'USD');
    expect(draft.attribute).toBe('IMAX');
    expect(bodyOf(draft, 'USD')).toMatchObject({ body: { attribute: 'IMAX' } });
    const cleared = bodyOf({ ...draft, attribute: '' }, 'USD');
    expect('body' in cleared && 'attribute' in cleared.body).toBe(false);
  });
});
