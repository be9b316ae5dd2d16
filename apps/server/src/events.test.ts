import { describe, expect, it, vi } from 'vitest';
import { DomainEvents, publishSeatChanges } from './events.ts';
import type { SeatsUpdate } from '@cinema/contract';

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
