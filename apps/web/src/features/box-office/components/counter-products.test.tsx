import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Menu, Product, StaffOrder } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { CounterSaleScreen } from './counter-sale-screen';
import { OrderItems } from './order-items';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const product = (p: Partial<Product> & { id: string; name: string; priceCents: number }): Product => ({
  categoryId: 'c',
  category: 'Snacks',
  description: null,
  active: true,
  ageRestricted: false,
  imageUrl: null,
  stock: null,
  soldOut: false,
  lowStock: false,
  options: [],
  components: null,
  position: 0,
  ...p,
});
const menu: Menu = {
  currency: 'USD',
  categories: [
    {
      id: 'c',
      name: 'Snacks',
      position: 0,
      products: [
        product({
          id: 'popcorn',
          name: 'Popcorn',
          priceCents: 450,
          options: [
            {
              id: 'size',
              name: 'Size',
              required: true,
              choices: [
                { id: 'small', name: 'Small', priceDeltaCents: 0 },
                { id: 'large', name: 'Large', priceDeltaCents: 200 },
              ],
            },
          ],
        }),
        product({ id: 'beer', name: 'Craft beer', priceCents: 600, ageRestricted: true }),
      ],
    },
  ],
};

beforeAll(() => {
  // jsdom has no modal dialogs: open it in place.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
});

beforeEach(() => {
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string) => {
    if (path === '/admin/scan/showtimes') return { showtimes: [] };
    if (path === '/menu') return menu;
    if (path === '/admin/box-office/sales')
      return {
        ref: 'K7Q-4MX2',
        status: 'paid',
        lines: [],
        products: [],
        totalCents: 1250,
        payments: [{ method: 'CASH', amountCents: 1250, refundedCents: 0 }],
        currency: 'USD',
      } as unknown as StaffOrder;
    throw new Error(`unexpected call: ${path}`);
  });
});

describe('food and drink at the counter', () => {
  it('sells items without tickets in one basket, with Check ID on an age-restricted one', async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <CounterSaleScreen />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Add snacks' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Large (+$2.00)' }));
    await user.click(within(dialog).getByRole('button', { name: /Add · \$6\.50/ }));
    await user.click(within(dialog).getByRole('button', { name: /Add · \$6\.00/ }));

    const basket = screen.getByRole('list', { name: 'Food and drink' });
    expect(within(basket).getAllByRole('listitem')[0]).toHaveTextContent('Popcorn (Large)$6.50');
    expect(within(basket).getAllByRole('listitem')[1]).toHaveTextContent('Craft beerCheck ID$6.00');
    expect(screen.getByText(/Check ID before handing over/)).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Cash' }));
    await user.click(screen.getByRole('button', { name: 'Sell · $12.50' }));
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/box-office/sales', {
      method: 'POST',
      body: expect.objectContaining({
        seatIds: [],
        paymentMethod: 'cash',
        products: [
          { productId: 'popcorn', quantity: 1, options: ['large'] },
          { productId: 'beer', quantity: 1 },
        ],
      }),
    });
    expect(await screen.findByText(/^Sold: order/)).toHaveTextContent('K7Q-4MX2');
    expect(screen.queryByRole('list', { name: 'Food and drink' })).not.toBeInTheDocument();
  }, 20_000);
});

describe('the items of an order, for staff', () => {
  it('says Check ID for an age-restricted item, where the kitchen has it, and refunds chosen items', async () => {
    const user = userEvent.setup();
    const order = {
      ref: 'K7Q-4MX2',
      currency: 'USD',
      products: [
        {
          lineId: 'line-beer',
          productId: 'beer',
          name: 'Craft beer',
          options: [],
          quantity: 2,
          unitPriceCents: 600,
          discountCents: 0,
          priceCents: 1200,
          ageRestricted: true,
          status: 'confirmed',
        },
      ],
      concessions: {
        fulfilment: 'SEAT',
        deliverAt: '2030-05-01T19:45:00.000Z',
        seat: { auditorium: 'Hall 1', row: 3, number: 7, rowLabel: 'C' },
        status: 'ready',
      },
    } as unknown as StaffOrder;
    vi.mocked(api).mockImplementation(async (path: string) => {
      if (path === '/admin/orders/K7Q-4MX2/refund')
        return { order, refundedCents: 1200, refundedBookingIds: [] };
      throw new Error(`unexpected call: ${path}`);
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <OrderItems order={order} />
      </QueryClientProvider>,
    );
    expect(screen.getByText(/Hall 1, Row C, Seat 7 · ready at the bar/)).toBeInTheDocument();
    expect(screen.getByText('Check ID')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /Craft beer/ }));
    await user.click(screen.getByRole('button', { name: 'Refund 1 item · $12.00' }));
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/orders/K7Q-4MX2/refund', {
      method: 'POST',
      body: { productLineIds: ['line-beer'] },
    });
    expect(await screen.findByText('Refunded $12.00; the items are on sale again.')).toBeInTheDocument();
  });
});
