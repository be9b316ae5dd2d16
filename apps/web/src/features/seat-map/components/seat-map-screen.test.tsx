import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SeatMap, SeatMapSeat, SeatsUpdate } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { SeatMapScreen } from './seat-map-screen';

// The two edges of the seat map: the HTTP client (every call goes through `api`) and the Socket.IO connection.
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

type Listener = (...args: unknown[]) => void;

/** A connected Socket.IO client: records what the page sends and lets the test play the server's side. */
const socket = vi.hoisted(() => {
  const listeners = new Map<string, Set<Listener>>();
  return {
    connected: true,
    sent: [] as unknown[][],
    on(event: string, listener: Listener) {
      listeners.set(event, (listeners.get(event) ?? new Set()).add(listener));
    },
    off(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
    },
    emit(event: string, ...args: unknown[]) {
      this.sent.push([event, ...args.filter((a) => typeof a !== 'function')]);
      const ack = args.find((a) => typeof a === 'function') as Listener | undefined;
      ack?.({ ok: true });
    },
    /** The server sends `event` to this client. */
    receive(event: string, payload: unknown) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    reset() {
      listeners.clear();
      this.sent = [];
    },
  };
});
vi.mock('../../../lib/socket', () => ({ getSocket: () => socket }));

const SHOWTIME = 'show-1';
const seat = (row: number, number: number, status: SeatMapSeat['status'] = 'AVAILABLE'): SeatMapSeat => ({
  id: `seat-${row}-${number}`,
  row,
  number,
  status,
});

/** What the server holds: the seats of a 2 × 4 hall, row A second seat held by someone, row B first one sold. */
let seats: SeatMapSeat[];
const seatMap = (): SeatMap => ({
  showtime: {
    id: SHOWTIME,
    startsAt: '2030-05-01T19:30:00.000Z',
    priceCents: 1200,
    auditoriumId: 'hall-1',
    auditorium: 'Hall 1',
    movie: { id: 'movie-1', title: 'The Test Picture' },
  },
  seats: seats.map((s) => ({ ...s })),
});
const seatMapReads = () =>
  vi.mocked(api).mock.calls.filter(([path]) => path === `/showtimes/${SHOWTIME}/seats`);

beforeEach(() => {
  seats = [
    seat(1, 1),
    seat(1, 2, 'HELD'),
    seat(1, 3),
    seat(1, 4),
    seat(2, 1, 'CONFIRMED'),
    seat(2, 2),
    seat(2, 3),
  ];
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string) => {
    if (path === `/showtimes/${SHOWTIME}/seats`) return seatMap();
    throw new Error(`unexpected call: ${path}`);
  });
});
afterEach(() => {
  socket.reset();
  vi.useRealTimers();
});

async function openSeatMap() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[`/showtimes/${SHOWTIME}/seats`]}>
        <Routes>
          <Route path="/showtimes/:id/seats" element={<SeatMapScreen />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await screen.findByRole('group', { name: 'Seats' });
}

const seatButton = (label: RegExp) => screen.getByRole('button', { name: label });
const holdButton = () => screen.getByRole('button', { name: 'Hold seats' });
/** The figure under a counter, such as "Selected". */
const counter = (name: string) =>
  within(screen.getByLabelText('Seat counts')).getByText(name).nextElementSibling?.textContent;
const notice = () => screen.queryByRole('status');

describe('the seat map', () => {
  it('shows every seat with its status, and Hold seats disabled until a seat is chosen', async () => {
    await openSeatMap();
    expect(seatButton(/^Row A, seat 1, available$/)).toHaveAttribute('data-status', 'AVAILABLE');
    expect(seatButton(/^Row A, seat 2, held$/)).toHaveAttribute('data-status', 'HELD');
    expect(seatButton(/^Row B, seat 1, sold$/)).toHaveAttribute('data-status', 'CONFIRMED');
    expect(holdButton()).toBeDisabled();
    expect(screen.getByText('Select at least one seat')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel holds' })).toBeDisabled();
    expect(screen.getByText('Hold seats first')).toBeInTheDocument();
    expect(screen.getByText(/\$12\.00 per seat/)).toBeInTheDocument();
  });

  it('marks an available seat selected when clicked, enables Hold seats and prices the choice', async () => {
    const user = userEvent.setup();
    await openSeatMap();
    await user.click(seatButton(/^Row A, seat 1, available$/));
    expect(seatButton(/^Row A, seat 1, selected$/)).toHaveAttribute('data-status', 'SELECTED');
    expect(holdButton()).toBeEnabled();
    expect(screen.queryByText('Select at least one seat')).not.toBeInTheDocument();
    await user.click(seatButton(/^Row A, seat 3, available$/));
    expect(screen.getByText('2 selected · $24.00')).toBeInTheDocument();
    expect(counter('Selected')).toBe('2');
    expect(counter('Available')).toBe('3');
  });

  it('takes a selected seat out of the selection when it is clicked again', async () => {
    const user = userEvent.setup();
    await openSeatMap();
    await user.click(seatButton(/^Row A, seat 1, available$/));
    await user.click(seatButton(/^Row A, seat 1, selected$/));
    expect(seatButton(/^Row A, seat 1, available$/)).toHaveAttribute('data-status', 'AVAILABLE');
    expect(holdButton()).toBeDisabled();
  });

  it('says why a held or a sold seat cannot be chosen, and leaves it unselected', async () => {
    const user = userEvent.setup();
    await openSeatMap();
    await user.click(seatButton(/^Row A, seat 2, held$/));
    expect(notice()).toHaveTextContent('Seat temporarily held');
    await user.click(seatButton(/^Row B, seat 1, sold$/));
    expect(notice()).toHaveTextContent('Seat already sold');
    expect(seatButton(/^Row A, seat 2, held$/)).toHaveAttribute('aria-disabled', 'true');
    expect(holdButton()).toBeDisabled();
  });

  it('lets a notice disappear after 1.5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openSeatMap();
    await user.click(seatButton(/^Row B, seat 1, sold$/));
    expect(notice()).toHaveTextContent('Seat already sold');
    act(() => vi.advanceTimersByTime(1400));
    expect(notice()).toHaveTextContent('Seat already sold');
    act(() => vi.advanceTimersByTime(100));
    expect(notice()).not.toBeInTheDocument();
  });

  it("joins the showtime's room to hear its seat updates", async () => {
    await openSeatMap();
    await waitFor(() => expect(socket.sent).toContainEqual(['join_showtime', SHOWTIME]));
  });

  it('reloads the map when a seats_update arrives', async () => {
    await openSeatMap();
    await waitFor(() => expect(socket.sent).toContainEqual(['join_showtime', SHOWTIME]));
    expect(seatMapReads()).toHaveLength(1);

    // Someone holds A3 and, by the time the map is read again, has bought A4 as well.
    seats = seats.map((s) =>
      s.id === 'seat-1-3'
        ? { ...s, status: 'HELD' }
        : s.id === 'seat-1-4'
          ? { ...s, status: 'CONFIRMED' }
          : s,
    );
    act(() =>
      socket.receive('seats_update', {
        showtimeId: SHOWTIME,
        seats: [{ id: 'seat-1-3', status: 'HELD' }],
      } satisfies SeatsUpdate),
    );
    expect(seatButton(/^Row A, seat 3, held$/)).toHaveAttribute('data-status', 'HELD');
    await waitFor(() => expect(seatButton(/^Row A, seat 4, sold$/)).toBeInTheDocument());
    expect(seatMapReads()).toHaveLength(2);
  });

  it("ignores updates of another showtime's map", async () => {
    await openSeatMap();
    await waitFor(() => expect(socket.sent).toContainEqual(['join_showtime', SHOWTIME]));
    act(() =>
      socket.receive('seats_update', { showtimeId: 'show-2', seats: [{ id: 'seat-1-1', status: 'HELD' }] }),
    );
    expect(seatButton(/^Row A, seat 1, available$/)).toBeInTheDocument();
    expect(seatMapReads()).toHaveLength(1);
  });

  it('takes a seat someone else took out of your selection, for good', async () => {
    const user = userEvent.setup();
    await openSeatMap();
    await waitFor(() => expect(socket.sent).toContainEqual(['join_showtime', SHOWTIME]));
    await user.click(seatButton(/^Row A, seat 1, available$/));
    await user.click(seatButton(/^Row A, seat 3, available$/));
    expect(screen.getByText('2 selected · $24.00')).toBeInTheDocument();

    seats = seats.map((s) => (s.id === 'seat-1-1' ? { ...s, status: 'HELD' } : s));
    act(() =>
      socket.receive('seats_update', { showtimeId: SHOWTIME, seats: [{ id: 'seat-1-1', status: 'HELD' }] }),
    );
    expect(seatButton(/^Row A, seat 1, held$/)).toHaveAttribute('data-status', 'HELD');
    expect(seatButton(/^Row A, seat 3, selected$/)).toBeInTheDocument();
    expect(screen.getByText('1 selected · $12.00')).toBeInTheDocument();

    // Their hold lapses: the seat is free again, but no longer part of this customer's choice.
    seats = seats.map((s) => (s.id === 'seat-1-1' ? { ...s, status: 'AVAILABLE' } : s));
    act(() =>
      socket.receive('seats_update', {
        showtimeId: SHOWTIME,
        seats: [{ id: 'seat-1-1', status: 'AVAILABLE' }],
      }),
    );
    expect(seatButton(/^Row A, seat 1, available$/)).toHaveAttribute('data-status', 'AVAILABLE');
    expect(screen.getByText('1 selected · $12.00')).toBeInTheDocument();
  });

  it('holds the selection: the seats become yours and Checkout and Cancel holds open', async () => {
    const user = userEvent.setup();
    const expiresAt = '2030-05-01T19:10:00.000Z';
    vi.mocked(api).mockImplementation(async (path: string, options) => {
      if (path === `/showtimes/${SHOWTIME}/hold`) {
        const { seatIds } = options!.body as { seatIds: string[] };
        seats = seats.map((s) =>
          seatIds.includes(s.id)
            ? { ...s, status: 'HELD', heldByMe: true, bookingId: `b-${s.id}`, expiresAt }
            : s,
        );
        return { bookingIds: seatIds.map((id) => `b-${id}`), expiresAt };
      }
      if (path === `/showtimes/${SHOWTIME}/seats`) return seatMap();
      throw new Error(`unexpected call: ${path}`);
    });
    await openSeatMap();
    await user.click(seatButton(/^Row A, seat 1, available$/));
    await user.click(holdButton());

    expect(await screen.findByText(/^Seats held until /)).toBeInTheDocument();
    expect(vi.mocked(api)).toHaveBeenCalledWith(`/showtimes/${SHOWTIME}/hold`, {
      method: 'POST',
      body: { seatIds: ['seat-1-1'] },
    });
    expect(seatButton(/^Row A, seat 1, held by you$/)).toHaveAttribute('data-mine', 'true');
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel holds' })).toBeEnabled();
    expect(screen.getByText('1 held · $12.00')).toBeInTheDocument();
  });
});
