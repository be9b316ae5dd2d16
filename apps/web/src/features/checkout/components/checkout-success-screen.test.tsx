import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LookupResponse, Order, OrderLine } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { CheckoutSuccessScreen } from './checkout-success-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const REF = 'K7Q-4MX2';
const lookup: LookupResponse = { sessionId: 'session-1', status: 'paid', tickets: [], orderRef: REF };
const giftLine = {
  bookingId: null,
  movie: 'Gift card',
  startsAt: '2026-11-27T10:00:00.000Z',
  auditorium: '',
  seat: { row: 0, number: 0 },
  ticketType: 'Gift card',
  listPriceCents: 5000,
  discountCents: 0,
  priceCents: 5000,
  status: 'confirmed',
  kind: 'GIFT_CARD',
  quantity: 1,
  unitPriceCents: 5000,
  taxRateBp: 0,
  taxCents: 0,
  name: 'Gift card',
  unitCents: 5000,
  taxRate: 0,
  totalCents: 5000,
  giftCard: {
    code: '7K2M-9QXD-4TRA-HV1E',
    expiresAt: '2031-11-27T10:00:00.000Z',
    recipientEmail: 'bea@example.com',
    message: 'Happy birthday!',
  },
} satisfies OrderLine;
const order = (lines: OrderLine[]): Order => ({
  ref: REF,
  status: 'paid',
  createdAt: '2026-11-27T10:00:00.000Z',
  paidAt: '2026-11-27T10:00:00.000Z',
  lines,
  subtotalCents: 5000,
  discountCents: 0,
  totalCents: 5000,
  refundedCents: 0,
  refunds: [],
  promoCode: null,
  currency: 'USD',
  testMode: true,
  payments: [{ method: 'CARD', amountCents: 5000, refundedCents: 0 }],
  taxCents: 0,
  taxMode: 'inclusive',
});

function renderSuccess(answer: Order) {
  vi.mocked(api).mockImplementation(async (path: string) => {
    if (path === '/pay/lookup?session_id=session-1') return lookup;
    if (path === `/me/orders/${REF}`) return answer;
    throw new Error(`unexpected call: ${path}`);
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/checkout/success?session_id=session-1']}>
        <CheckoutSuccessScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the success page', () => {
  afterEach(() => vi.mocked(api).mockReset());

  it('shows the gift card an order bought, not "No tickets found"', async () => {
    renderSuccess(order([giftLine]));
    const bought = await screen.findByRole('list', { name: 'Gift cards bought' });
    expect(within(bought).getByRole('listitem')).toHaveTextContent(
      /^A gift card of \$50\.00, emailed to bea@example\.com\.Code: 7K2M-9QXD-4TRA-HV1E · valid until /,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment Successful');
    expect(screen.queryByText('No tickets found for this session.')).not.toBeInTheDocument();
  });

  it('keeps the spec’s "No tickets found" for a paid order of tickets that has none to show', async () => {
    renderSuccess(order([{ ...giftLine, kind: 'TICKET', giftCard: undefined, bookingId: 'b1' }]));
    expect(await screen.findByText('No tickets found for this session.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Gift cards bought' })).not.toBeInTheDocument();
  });
});
