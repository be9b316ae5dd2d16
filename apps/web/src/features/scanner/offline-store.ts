import type { DoorListResponse, DoorTicket } from '@cinema/contract';

/**
 * What the scanner keeps on the device (localStorage) so the door keeps working without a network: the admitted
 * showtime's ticket list with each ticket's check-in state, and the check-ins made offline, queued until sent.
 */
export interface QueuedCheckIn {
  bookingId: string;
  scannedAt: string;
  force?: boolean;
}

const listKey = (showtimeId: string) => `cinema.door.list.${showtimeId}`;
const queueKey = (showtimeId: string) => `cinema.door.queue.${showtimeId}`;
const DEVICE_KEY = 'cinema.door.device';

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export const loadList = (showtimeId: string) => read<DoorListResponse>(listKey(showtimeId));
export const saveList = (list: DoorListResponse) =>
  localStorage.setItem(listKey(list.showtime.id), JSON.stringify(list));

export const loadQueue = (showtimeId: string) => read<QueuedCheckIn[]>(queueKey(showtimeId)) ?? [];
export const saveQueue = (showtimeId: string, queue: QueuedCheckIn[]) =>
  localStorage.setItem(queueKey(showtimeId), JSON.stringify(queue));

export const loadDeviceLabel = () => localStorage.getItem(DEVICE_KEY) ?? 'Door 1';
export const saveDeviceLabel = (label: string) => localStorage.setItem(DEVICE_KEY, label);

/** The list with one ticket's check-in state changed. */
export function withTicket(
  list: DoorListResponse,
  bookingId: string,
  change: Partial<DoorTicket>,
): DoorListResponse {
  const tickets = list.tickets.map((t) => (t.bookingId === bookingId ? { ...t, ...change } : t));
  const checkedIn = tickets.filter((t) => t.status === 'CONFIRMED' && t.checkedInAt).length;
  const sold = tickets.filter((t) => t.status === 'CONFIRMED').length;
  return {
    ...list,
    tickets,
    showtime: { ...list.showtime, counts: { sold, checkedIn, toCome: sold - checkedIn } },
  };
}
