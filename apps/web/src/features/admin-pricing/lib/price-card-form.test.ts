import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, emptyDraft, priceKey, weekdaysInWords } from './price-card-form';

describe('price card form', () => {
  it('turns typed dollars into whole cents and leaves blank prices out', () => {
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
    expect(bodyOf(draft)).toEqual({
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
    const ok = bodyOf({
      ...emptyDraft(),
      name: 'Late',
      from: '22:00',
      to: '00:00',
      prices: { 'a|STANDARD': '8' },
    });
    expect('body' in ok && ok.body.to).toBe('24:00');
    expect(bodyOf({ ...emptyDraft(), name: '', prices: { 'a|STANDARD': '8' } })).toEqual({
      error: 'Give the card a name',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X', weekdays: [], prices: { 'a|STANDARD': '8' } })).toEqual({
      error: 'Choose at least one day',
    });
    expect(
      bodyOf({ ...emptyDraft(), name: 'X', from: '18:00', to: '10:00', prices: { 'a|STANDARD': '8' } }),
    ).toEqual({
      error: 'The window must end after it starts',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X' })).toEqual({
      error: 'A price card needs at least one price',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X', prices: { 'a|STANDARD': '-1' } })).toEqual({
      error: '“-1” is not a price',
    });
    expect(bodyOf({ ...emptyDraft(), name: 'X', prices: { 'a|STANDARD': '1.005' } })).toEqual({
      error: '“1.005”: prices are in whole cents',
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
    const draft = draftOf(card);
    expect(draft.prices).toEqual({ 'a|SOFA': '12.50' });
    expect(bodyOf(draft)).toEqual({
      body: { name: 'Standard', weekdays: [6, 7], from: '00:00', to: '24:00', prices: card.prices },
    });
  });

  it('says the days as people write them', () => {
    expect(weekdaysInWords([1, 2, 3, 4, 5, 6, 7])).toBe('Every day');
    expect(weekdaysInWords([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(weekdaysInWords([6, 7])).toBe('Sat, Sun');
    expect(weekdaysInWords([1, 3, 4, 5, 7])).toBe('Mon, Wed–Fri, Sun');
  });
});
