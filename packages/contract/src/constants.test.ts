import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PasswordSchema } from './auth.ts';
import { ShowtimeOverlapErrorSchema } from './catalogue.ts';
import { PASSWORD_RULES, readApiError, readShowtimeClash, rowLabel, seatLabel } from './constants.ts';
import { ErrorSchema } from './errors.ts';

describe('seat labels', () => {
  it('letters rows like a hall: A to Z, then AA', () => {
    expect([1, 3, 26, 27, 28, 52, 53, 702, 703].map(rowLabel)).toEqual([
      'A',
      'C',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('names a seat for a ticket, inside a sentence, and on a checkout line item', () => {
    const seat = { row: 3, number: 7 };
    expect(seatLabel(seat)).toBe('Row C, Seat 7');
    expect(seatLabel(seat, { style: 'inline' })).toBe('Row C, seat 7');
    expect(seatLabel(seat, { style: 'line-item' })).toBe('Row C Seat 7');
    expect(seatLabel({ row: 27, number: 12 })).toBe('Row AA, Seat 12');
  });
});

describe('one rule in one place: the plain functions agree with the schemas', () => {
  it("the sign-up form's checklist passes exactly the passwords the server accepts (up to 72 characters)", () => {
    const password = fc.oneof(
      fc.string({ maxLength: 72 }),
      fc.string({ unit: fc.constantFrom('a', 'B', '3', '#', 'é', ' '), maxLength: 12 }),
    );
    fc.assert(
      fc.property(password, (p) => {
        expect(PASSWORD_RULES.every((rule) => rule.test(p))).toBe(PasswordSchema.safeParse(p).success);
      }),
    );
  });

  const bodies = fc.oneof(
    fc.anything(),
    fc.record(
      {
        error: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
        code: fc.oneof(fc.constantFrom('showtime_overlap', 'conflict'), fc.integer(), fc.constant(undefined)),
        clash: fc.oneof(
          fc.record({
            id: fc.oneof(fc.string(), fc.integer()),
            movie: fc.string(),
            auditorium: fc.string(),
            startsAt: fc.string(),
            endsAt: fc.oneof(fc.string(), fc.constant(null)),
            extra: fc.string(),
          }),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    ),
  );

  it('reads an error envelope exactly when the error schema accepts the body', () => {
    fc.assert(
      fc.property(bodies, (body) => {
        const parsed = ErrorSchema.safeParse(body);
        const read = readApiError(body);
        expect(read !== null).toBe(parsed.success);
        if (read) expect(read).toEqual({ error: parsed.data!.error, code: parsed.data!.code });
      }),
    );
  });

  it('reads the clash of a refused showtime exactly as the overlap schema does', () => {
    fc.assert(
      fc.property(bodies, (body) => {
        expect(readShowtimeClash(body)).toEqual(
          ShowtimeOverlapErrorSchema.safeParse(body).data?.clash ?? null,
        );
      }),
    );
  });
});
