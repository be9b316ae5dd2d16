import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoorShowtime, SeatMap, ShowtimePrices } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { CounterSaleScreen } from './counter-sale-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const SHOWTIME = 'show-1';
const showtime: DoorShowtime = {
  id: SHOWTIME,
  movie: 'The Test Picture',
  startsAt: '2030-05-01T19:30:00.000Z',
  endsAt: '2030-05-01T21:30:00.000Z',
  auditorium: 'Hall 1',
  entryOpensAt: '2030-05-01T18:30:00.000Z',
  entryOpen: false,
  counts: { sold: 0, checkedIn: 0, toCome: 0 },
};
/** One row: a standard seat and a premium seat. */
const seatMap: SeatMap = {
  showtime: {
    id: SHOWTIME,
    startsAt: showtime.startsAt,
    priceCents: 1300,
    auditoriumId: 'hall-1',
    auditorium: showtime.auditorium,
    movie: { id: 'movie-1', title: showtime.movie },
  },
  seats: [
    { id: 'seat-1', row: 1, number: 1, status: 'AVAILABLE', type: 'STANDARD' },
    { id: 'seat-2', row: 1, number: 2, status: 'AVAILABLE', type: 'PREMIUM' },
  ],
};
/** The card prices Child on standard seats only: on a premium seat it is left blank. */
const prices: ShowtimePrices = {
  showtimeId: SHOWTIME,
  currency: 'USD',
  priceCard: { id: 'card', name: 'Evenings' },
  ticketTypes: [
    { id: 'adult', name: 'Adult' },
    { id: 'child', name: 'Child' },
  ],
  defaultTicketTypeId: 'adult',
  prices: [
    { ticketTypeId: 'adult', seatType: 'STANDARD', priceCents: 1300 },
    { ticketTypeId: 'adult', seatType: 'PREMIUM', priceCents: 1600 },
    { ticketTypeId: 'child', seatType: 'STANDARD', priceCents: 800 },
  ],
};

beforeEach(() => {
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string) => {
    if (path === '/admin/scan/showtimes') return { showtimes: [showtime] };
    if (path === `/showtimes/${SHOWTIME}/seats`) return seatMap;
    if (path === `/showtimes/${SHOWTIME}/prices`) return prices;
    throw new Error(`unexpected call: ${path}`);
  });
});

describe('the counter sale', () => {
  it('offers each seat only the ticket types its seat type is priced for: no Child on a premium seat', async () => {
    const user = userEvent.setup();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <CounterSaleScreen />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Showtime' }), SHOWTIME);
    const seats = await screen.findAllByRole('button', { name: /^Row A, seat [12]\b/ });
    for (const seat of seats) await user.click(seat);

    const typeOf = (seat: RegExp) => screen.getByRole('combobox', { name: seat });
    const options = (select: HTMLElement) =>
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent);
    const standard = await screen.findByRole('combobox', { name: 'Ticket type for Row A, Seat 1' });
    expect(options(standard)).toEqual(['Adult', 'Child']);
    expect(options(typeOf(/^Ticket type for Row A, Seat 2/))).toEqual(['Adult']);
    await user.selectOptions(standard, 'Child');
    // $8.00 standard Child + $16.00 premium Adult.
    expect(screen.getByRole('button', { name: 'Sell 2 tickets · $24.00' })).toBeEnabled();
  }, 20_000);
});
