import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoorShowtime, SeatMap, ShowtimePrices, StaffOrder } from '@cinema/contract';
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

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <CounterSaleScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the counter sale', () => {
  it('offers each seat only the ticket types its seat type is priced for: no Child on a premium seat', async () => {
    const user = userEvent.setup();
    renderScreen();
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

describe('gift cards at the counter', () => {
  const CODE = '7K2M-9QXD-4TRA-HV1E';
  const sold = (over: Partial<StaffOrder>): StaffOrder =>
    ({
      ref: 'K7Q-4MX2',
      status: 'paid',
      createdAt: '2026-11-27T10:00:00.000Z',
      paidAt: '2026-11-27T10:00:00.000Z',
      lines: [],
      subtotalCents: 0,
      discountCents: 0,
      totalCents: 0,
      refundedCents: 0,
      refunds: [],
      promoCode: null,
      currency: 'USD',
      testMode: true,
      payments: [],
      customer: { email: null, name: null },
      provider: 'box_office',
      paymentMethod: 'cash',
      soldBy: 'desk@example.com',
      ...over,
    }) as StaffOrder;

  it('sells a gift card without a showtime, emailed to its recipient, and shows it ready to print', async () => {
    const user = userEvent.setup();
    const line = {
      kind: 'GIFT_CARD',
      priceCents: 3000,
      giftCard: { code: CODE, expiresAt: '2031-11-27T10:00:00.000Z', recipientEmail: 'bea@example.com' },
    };
    vi.mocked(api).mockImplementation(async (path: string) => {
      if (path === '/admin/scan/showtimes') return { showtimes: [showtime] };
      if (path === '/admin/box-office/sales')
        return sold({
          lines: [line] as StaffOrder['lines'],
          totalCents: 3000,
          payments: [{ method: 'CASH', amountCents: 3000, refundedCents: 0 }],
        });
      throw new Error(`unexpected call: ${path}`);
    });
    renderScreen();
    await screen.findByText(
      'Choose a showtime to sell seats, or sell food and drink or gift cards on their own.',
    );
    const amount = screen.getByRole('textbox', { name: 'Amount ($5.00 to $500.00)' });
    await user.type(amount, '2');
    await user.click(screen.getByRole('button', { name: 'Add gift card' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an amount from $5.00 to $500.00');
    await user.clear(amount);
    await user.type(amount, '30');
    await user.type(screen.getByRole('textbox', { name: 'Email the card to (optional)' }), 'bea@example.com');
    await user.click(screen.getByRole('button', { name: 'Add gift card' }));
    expect(screen.getByRole('list', { name: 'Gift cards to sell' })).toHaveTextContent(
      'Gift card for bea@example.com$30.00',
    );
    // Cards never pay for cards: no redeeming while one is being sold.
    expect(screen.queryByRole('heading', { name: 'Pay with gift cards' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Cash' }));
    await user.click(screen.getByRole('button', { name: 'Sell · $30.00' }));

    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/box-office/sales', {
      method: 'POST',
      body: expect.objectContaining({
        seatIds: [],
        paymentMethod: 'cash',
        giftCards: [{ amountCents: 3000, recipientEmail: 'bea@example.com' }],
      }),
    });
    const body = vi.mocked(api).mock.calls.find(([p]) => p === '/admin/box-office/sales')![1]!.body as object;
    expect(body).not.toHaveProperty('showtimeId');
    expect(await screen.findByText(/^Sold: order/)).toHaveTextContent(
      'Sold: order K7Q-4MX2, 1 gift card, $30.00 by cash.',
    );
    const printable = screen.getByRole('region', { name: 'Gift cards to print' });
    expect(within(printable).getByRole('listitem')).toHaveTextContent(
      /\$30\.00.*7K2M-9QXD-4TRA-HV1E.*Valid until.*Also emailed to bea@example\.com/,
    );
    expect(within(printable).getByRole('button', { name: 'Print the gift card' })).toBeEnabled();
    expect(
      await within(printable).findByRole('img', { name: `QR code of gift card ${CODE}` }),
    ).toHaveAttribute('data-qr-value', CODE);
  }, 20_000);

  it('takes a gift card for seats, checked first, and the rest by the card terminal', async () => {
    const user = userEvent.setup();
    vi.mocked(api).mockImplementation(async (path: string) => {
      if (path === '/admin/scan/showtimes') return { showtimes: [showtime] };
      if (path === `/showtimes/${SHOWTIME}/seats`) return seatMap;
      if (path === `/showtimes/${SHOWTIME}/prices`) return prices;
      if (path === '/gift-cards/7K2M9QXD4TRAHV1E')
        return { code: CODE, balanceCents: 1000, currency: 'USD', expiresAt: '2031-01-01', status: 'active' };
      if (path === '/gift-cards/0000000000000000')
        return {
          code: '0000-0000-0000-0000',
          balanceCents: 0,
          currency: 'USD',
          expiresAt: '2031-01-01',
          status: 'voided',
        };
      if (path === '/admin/box-office/sales')
        return sold({
          lines: [{ kind: 'TICKET' }] as StaffOrder['lines'],
          totalCents: 1300,
          paymentMethod: 'card',
          payments: [
            { method: 'GIFT_CARD', amountCents: 1000, refundedCents: 0 },
            { method: 'CARD_TERMINAL', amountCents: 300, refundedCents: 0 },
          ],
        });
      throw new Error(`unexpected call: ${path}`);
    });
    renderScreen();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Showtime' }), SHOWTIME);
    await user.click(await screen.findByRole('button', { name: /^Row A, seat 1\b/ }));
    await screen.findByRole('button', { name: 'Sell 1 ticket · $13.00' });

    const code = screen.getByRole('textbox', { name: 'Gift card code' });
    await user.type(code, '0000 0000 0000 OOOO');
    await user.click(screen.getByRole('button', { name: 'Use card' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('0000-0000-0000-0000 is void.');
    await user.clear(code);
    await user.type(code, '7k2m9qxd4trahv1e');
    await user.click(screen.getByRole('button', { name: 'Use card' }));
    const paying = await screen.findByRole('list', { name: 'Gift cards paying' });
    expect(paying).toHaveTextContent(`${CODE}−$10.00 (holds $10.00)`);
    expect(screen.getByTestId('counter-rest')).toHaveTextContent('the rest to pay: $3.00');
    expect(screen.getByRole('group', { name: 'The rest paid by' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Sell 1 ticket · $13.00' }));

    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/box-office/sales', {
      method: 'POST',
      body: expect.objectContaining({
        showtimeId: SHOWTIME,
        seatIds: ['seat-1'],
        paymentMethod: 'card',
        redeem: [{ code: CODE }],
      }),
    });
    expect(await screen.findByText(/^Sold: order/)).toHaveTextContent(
      'Sold: order K7Q-4MX2, 1 ticket, $10.00 by gift card, $3.00 by card terminal.',
    );
    expect(screen.queryByRole('region', { name: 'Gift cards to print' })).not.toBeInTheDocument();
  }, 20_000);
});
