import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffOrder, StaffOrderLine } from '@cinema/contract';
import { api, ApiError } from '../../../lib/api-client';
import { OrderScreen } from './order-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const line = (l: Partial<StaffOrderLine>): StaffOrderLine =>
  ({
    bookingId: null,
    showtimeId: null,
    movieId: null,
    movie: '',
    startsAt: '2030-05-01T20:00:00.000Z',
    auditorium: '',
    seat: null,
    ticketType: '',
    status: 'confirmed',
    quantity: 1,
    dueCents: 0,
    checkedInAt: null,
    exchangedAt: null,
    ...l,
  }) as unknown as StaffOrderLine;

const order = {
  ref: 'K7Q-4MX2',
  status: 'paid',
  testMode: false,
  currency: 'USD',
  customer: { email: 'ana@example.com', name: 'Ana' },
  totalCents: 6250,
  discountCents: 0,
  refundedCents: 0,
  taxCents: 0,
  paidAt: '2030-05-01T18:00:00.000Z',
  soldBy: null,
  provider: 'local',
  paymentMethod: null,
  payments: [{ method: 'CARD', amountCents: 6250, refundedCents: 0 }],
  refunds: [],
  products: [],
  lines: [
    line({
      kind: 'TICKET',
      bookingId: 'booking-1',
      showtimeId: 'show-1',
      movieId: 'movie-1',
      movie: 'Arrival',
      auditorium: 'Hall 1',
      seat: { row: 3, number: 7, rowLabel: 'C', seatType: 'STANDARD' },
      ticketType: 'Adult',
      priceCents: 1250,
    } as Partial<StaffOrderLine>),
    line({
      kind: 'GIFT_CARD',
      priceCents: 5000,
      giftCard: {
        lineId: 'line-card',
        code: 'ABCD-EFGH-JKMN-PQRT',
        recipientEmail: 'bob@example.com',
        message: 'Happy birthday!',
      },
    }),
  ],
} as unknown as StaffOrder;

beforeEach(() => {
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string) => {
    if (path === '/admin/orders/K7Q-4MX2') return order;
    if (path === '/admin/orders/K7Q-4MX2/refund')
      return { order, refundedCents: 1250, refundedBookingIds: ['booking-1'] };
    throw new Error(`unexpected call: ${path}`);
  });
});

const showOrder = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/admin/orders/K7Q-4MX2']}>
        <Routes>
          <Route path="/admin/orders/:ref" element={<OrderScreen />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('an order for staff', () => {
  it('lists a gift card it sold apart from the tickets, with its value, code and status, never to refund as a seat', async () => {
    const user = userEvent.setup();
    showOrder();
    const tickets = await screen.findByRole('form', { name: 'Tickets' });
    // One seat to tick, and nothing of the gift card among the tickets.
    expect(within(tickets).getAllByRole('checkbox')).toHaveLength(1);
    expect(within(tickets).queryByText(/\$50\.00/)).not.toBeInTheDocument();

    const cards = screen.getByRole('region', { name: 'Gift cards' });
    const [card] = within(cards).getAllByRole('listitem');
    expect(card).toHaveTextContent('$50.00 · ABCD-EFGH-JKMN-PQRT · for bob@example.com · issued');
    expect(cards).toHaveTextContent(/refuses that once the card has been used/);

    // Choosing every ticket chooses the seat only: the refund names its booking and nothing else.
    await user.click(within(tickets).getByRole('button', { name: 'Choose every ticket' }));
    await user.click(within(tickets).getByRole('button', { name: /Refund 1 ticket/ }));
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/orders/K7Q-4MX2/refund', {
      method: 'POST',
      body: { bookingIds: ['booking-1'] },
    });
  }, 20_000);

  it('refunds a gift card by its line, and shows the server refusing a card that was used', async () => {
    const user = userEvent.setup();
    let used = true;
    vi.mocked(api).mockImplementation(async (path: string) => {
      if (path === '/admin/orders/K7Q-4MX2') return order;
      if (path === '/admin/orders/K7Q-4MX2/refund') {
        if (used)
          throw new ApiError(
            'The gift card ABCD-EFGH-JKMN-PQRT was already used: its purchase cannot be refunded',
            409,
            'gift_card_used',
          );
        return { order, refundedCents: 5000, refundedBookingIds: [] };
      }
      throw new Error(`unexpected call: ${path}`);
    });
    showOrder();
    const cards = await screen.findByRole('region', { name: 'Gift cards' });
    await user.click(within(cards).getByRole('button', { name: 'Refund card · $50.00' }));
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/orders/K7Q-4MX2/refund', {
      method: 'POST',
      body: { giftCardLineIds: ['line-card'] },
    });
    expect(
      await within(cards).findByText(/was already used: its purchase cannot be refunded/),
    ).toBeInTheDocument();
    used = false;
    await user.click(within(cards).getByRole('button', { name: 'Refund card · $50.00' }));
    expect(await within(cards).findByText('Refunded $50.00; the card is voided.')).toBeInTheDocument();
  }, 20_000);
});
