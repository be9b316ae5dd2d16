import { describe, expect, it } from 'vitest';
import { auditChanges, fieldName } from './audit-changes';

describe('an audit entry read by a person', () => {
  it('names fields in words', () => {
    expect(fieldName('startsAt')).toBe('Starts at');
    expect(fieldName('priceCents')).toBe('Price');
    expect(fieldName('ticket_type')).toBe('Ticket type');
  });

  it('sets before beside after, field by field, and marks what changed', () => {
    expect(
      auditChanges(
        { name: 'Hall 1', rows: 10, seats: 120 },
        { name: 'Hall 1', rows: 9, seats: 110, removed: 10 },
      ),
    ).toEqual([
      { field: 'Name', before: 'Hall 1', after: 'Hall 1', changed: false, reference: false },
      { field: 'Rows', before: '10', after: '9', changed: true, reference: false },
      { field: 'Seats', before: '120', after: '110', changed: true, reference: false },
      { field: 'Removed', before: null, after: '10', changed: true, reference: false },
    ]);
  });

  it('tells references apart from what they name', () => {
    expect(
      auditChanges({ id: 'a', movieId: 'b', movie: 'Heat', auditoriumIds: ['c'] }, null).map((c) => [
        c.field,
        c.reference,
      ]),
    ).toEqual([
      ['Id', true],
      ['Movie id', true],
      ['Movie', false],
      ['Auditorium ids', true],
    ]);
  });

  it('reads money, instants on the cinema’s clocks and lists', () => {
    const [price, starts, halls] = auditChanges(
      null,
      {
        priceCents: 1250,
        startsAt: '2026-12-01T20:00:00.000Z',
        halls: ['Hall 1', 'Hall 2'],
      },
      'UTC',
    );
    expect(price).toMatchObject({ field: 'Price', before: null, after: '$12.50' });
    // 20:00 UTC, in the viewer's language: "Dec 1, 2026, 8:00 PM" or "1 Dec 2026, 20:00".
    expect(starts!.after).toMatch(/2026/);
    expect(starts!.after).toMatch(/\b(8:00|20:00)\b/);
    expect(starts!.after).not.toContain('T20:00');
    expect(halls).toMatchObject({ field: 'Halls', after: 'Hall 1, Hall 2' });
  });
});
