import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { DomainEvents, publishSeatChanges, transactionWithEvents } from './events.ts';
import type { SeatsUpdate } from '@cinema/contract';
import { createTestDatabase, engines, type TestDatabase } from './test/helpers.ts';

const silentLog = () => ({ error: vi.fn() }) as unknown as ConstructorParameters<typeof DomainEvents>[0];

describe('domain events', () => {
  it('hands each event to every subscriber, in the order they subscribed', () => {
    const events = new DomainEvents(silentLog());
    const seen: string[] = [];
    events.subscribe('seatsChanged', (u) => seen.push(`cache ${u.showtimeId}`));
    events.subscribe('seatsChanged', (u) => seen.push(`sockets ${u.showtimeId}`));
    events.subscribe('seatMapStale', (e) => seen.push(`stale ${e.showtimeId ?? 'all'}`));
    events.publish('seatsChanged', { showtimeId: 's1', seats: [{ id: 'a', status: 'HELD' }] });
    events.publish('seatMapStale', {});
    expect(seen).toEqual(['cache s1', 'sockets s1', 'stale all']);
  });

  it('keeps telling the other subscribers when one throws, and logs it', () => {
    const log = silentLog();
    const events = new DomainEvents(log);
    const reached = vi.fn();
    events.subscribe('seatsChanged', () => {
      throw new Error('Redis is gone');
    });
    events.subscribe('seatsChanged', reached);
    expect(() => events.publish('seatsChanged', { showtimeId: 's1', seats: [] })).not.toThrow();
    expect(reached).toHaveBeenCalledOnce();
    expect(log.error).toHaveBeenCalledOnce();
  });

  it('publishes seat changes once per showtime, each seat with its status', () => {
    const events = new DomainEvents(silentLog());
    const updates: SeatsUpdate[] = [];
    events.subscribe('seatsChanged', (u) => updates.push(u));
    publishSeatChanges(events, [
      { showtimeId: 's1', seatId: 'a', status: 'CONFIRMED' },
      { showtimeId: 's2', seatId: 'b', status: 'AVAILABLE' },
      { showtimeId: 's1', seatId: 'c', status: 'HELD' },
    ]);
    publishSeatChanges(events, []);
    expect(updates).toEqual([
      {
        showtimeId: 's1',
        seats: [
          { id: 'a', status: 'CONFIRMED' },
          { id: 'c', status: 'HELD' },
        ],
      },
      { showtimeId: 's2', seats: [{ id: 'b', status: 'AVAILABLE' }] },
    ]);
  });
});

describe.each(engines)('events recorded in a transaction on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.database.close();
    await t?.drop();
  });

  const paid = {
    sessionId: 's1',
    ref: 'K7Q-4MX2',
    channel: 'box_office' as const,
    confirmed: 1,
    refunded: 0,
  };

  it('publishes them once, in the order recorded, after the transaction committed', async () => {
    const events = new DomainEvents(silentLog());
    const seen: string[] = [];
    events.subscribe('seatsChanged', (u) => seen.push(`seats ${u.showtimeId}`));
    events.subscribe('orderPaid', (e) => seen.push(`paid ${e.ref}`));
    const result = await transactionWithEvents({ db: t.database.db, events }, async (tx, after) => {
      after.seats([{ showtimeId: 'st', seatId: 'a', status: 'CONFIRMED' }]);
      after.record('orderPaid', paid);
      await tx.execute(sql`select 1`);
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['seats st', 'paid K7Q-4MX2']);
  });

  it('publishes nothing when the transaction fails after recording them', async () => {
    const events = new DomainEvents(silentLog());
    const seen = vi.fn();
    events.subscribe('orderPaid', seen);
    events.subscribe('seatsChanged', seen);
    await expect(
      transactionWithEvents({ db: t.database.db, events }, async (tx, after) => {
        after.record('orderPaid', paid);
        after.seats([{ showtimeId: 'st', seatId: 'a', status: 'CONFIRMED' }]);
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow(/select 1 \/ 0/);
    expect(seen).not.toHaveBeenCalled();
  });
});
