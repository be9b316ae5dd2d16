import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Kitchen, KitchenOrder } from '@cinema/contract';
import { SOCKET_EVENTS } from '@cinema/contract/constants';
import { api } from '../../../lib/api-client';
import { KitchenScreen } from './kitchen-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));
vi.mock('../../../lib/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/session')>()),
  getToken: () => 'staff-token',
}));

/** A socket that joins the kitchen at once and lets the test send kitchen_update. */
const handlers = new Map<string, (...args: unknown[]) => void>();
const joined: unknown[] = [];
vi.mock('../../../lib/socket', () => ({
  getSocket: () => ({
    connected: true,
    on: (event: string, fn: (...args: unknown[]) => void) => handlers.set(event, fn),
    off: (event: string) => handlers.delete(event),
    emit: (event: string, payload: unknown, ack?: (a: unknown) => void) => {
      if (event === SOCKET_EVENTS.joinKitchen) {
        joined.push(payload);
        ack?.({ ok: true });
      }
    },
  }),
}));

const order = (o: Partial<KitchenOrder> & { ref: string }): KitchenOrder => ({
  status: 'preparing',
  paidAt: '2030-05-01T19:00:00.000Z',
  fulfilment: 'PICKUP',
  deliverAt: null,
  seat: null,
  movie: null,
  startsAt: null,
  customerName: null,
  items: [{ name: 'Popcorn', options: ['Large'], quantity: 1, ageRestricted: false }],
  checkId: false,
  handedOverAt: null,
  handedOverBy: null,
  ...o,
});

let kitchen: Kitchen;
beforeEach(() => {
  joined.length = 0;
  kitchen = {
    orders: [
      order({
        ref: 'AAA-2222',
        fulfilment: 'SEAT',
        deliverAt: '2030-05-01T19:45:00.000Z',
        seat: { auditorium: 'Hall 1', row: 3, number: 7, rowLabel: 'C' },
        movie: 'The Test Picture',
        startsAt: '2030-05-01T19:30:00.000Z',
      }),
      order({
        ref: 'BBB-3333',
        status: 'ready',
        checkId: true,
        items: [{ name: 'Craft beer', options: [], quantity: 2, ageRestricted: true }],
      }),
      order({
        ref: 'CCC-4444',
        status: 'collected',
        handedOverAt: '2030-05-01T19:10:00.000Z',
        handedOverBy: 'sam@example.com',
      }),
    ],
  };
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string, init?: { body?: unknown }) => {
    if (path === '/admin/kitchen') return kitchen;
    const m = /^\/admin\/concession-orders\/(.+)\/status$/.exec(path);
    if (m) return { ...order({ ref: decodeURIComponent(m[1]!) }), ...(init?.body as object) };
    throw new Error(`unexpected call: ${path}`);
  });
});

function renderScreen() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <KitchenScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the kitchen screen', () => {
  it('shows the orders in three columns, seat deliveries with hall and seat, Check ID, and that it is live', async () => {
    renderScreen();
    const prepare = await screen.findByRole('region', { name: /To prepare/ });
    expect(within(prepare).getByText(/Hall 1, Row C, Seat 7/)).toBeTruthy();
    // Its time (2030) has not come: not late; the order past its time is.
    expect(within(prepare).queryByText('Late')).toBeNull();
    const ready = screen.getByRole('region', { name: /Ready/ });
    expect(within(ready).getAllByText('Check ID').length).toBeGreaterThan(0);
    const done = screen.getByRole('region', { name: /Handed over/ });
    expect(within(done).getByText(/sam@example.com/)).toBeTruthy();
    expect(await screen.findByText('Live: paid orders appear here at once.')).toBeTruthy();
    expect(joined).toEqual([{ token: 'staff-token' }]);
    expect(screen.getByText(/never takes or redeems gift cards/)).toBeTruthy();
  });

  it('marks a seat delivery whose time has passed as late', async () => {
    kitchen = {
      orders: [
        order({
          ref: 'EEE-7777',
          fulfilment: 'SEAT',
          deliverAt: '2020-01-01T19:45:00.000Z',
          seat: { auditorium: 'Hall 2', row: 1, number: 1 },
        }),
      ],
    };
    renderScreen();
    const prepare = await screen.findByRole('region', { name: /To prepare/ });
    expect(within(prepare).getByRole('article', { name: /EEE-7777/ }).textContent).toContain('Late');
  });

  it('reads the orders again when the server says one changed', async () => {
    renderScreen();
    await screen.findByRole('region', { name: /To prepare/ });
    kitchen = { orders: [...kitchen.orders, order({ ref: 'DDD-6666' })] };
    handlers.get(SOCKET_EVENTS.kitchenUpdate)!({ ref: 'DDD-6666' });
    expect(await screen.findByText('DDD-6666')).toBeTruthy();
  });

  it('hands over a typed reference, asking for the ID check first when an item is age-restricted', async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByRole('region', { name: /To prepare/ });
    await user.type(screen.getByLabelText('Order reference'), 'aaa2222');
    await user.click(screen.getByRole('button', { name: 'Hand over' }));
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/concession-orders/AAA-2222/status', {
      method: 'POST',
      body: { status: 'delivered' },
    });
    expect(await screen.findByText('AAA-2222 handed over.')).toBeTruthy();

    await user.type(screen.getByLabelText('Order reference'), 'bbb-3333');
    await user.click(screen.getByRole('button', { name: 'Hand over' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('check ID before handing over'),
    );
    expect(vi.mocked(api)).not.toHaveBeenCalledWith(
      '/admin/concession-orders/BBB-3333/status',
      expect.anything(),
    );
    await user.click(screen.getAllByRole('button', { name: 'ID checked: hand over BBB-3333' })[0]!);
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/concession-orders/BBB-3333/status', {
      method: 'POST',
      body: { status: 'collected' },
    });
  });

  it('says a code that is no order reference is not one (a ticket held up by mistake), sending nothing', async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByRole('region', { name: /To prepare/ });
    await user.type(screen.getByLabelText('Order reference'), '0192f3c4-aaaa-7bbb-8ccc-123456789abc');
    await user.click(screen.getByRole('button', { name: 'Hand over' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "“0192f3c4-aaaa-7bbb-8ccc-123456789abc” is not an order's reference (such as K7Q-4MX2).",
    );
    expect(vi.mocked(api).mock.calls.map(([path]) => path)).toEqual(['/admin/kitchen']);
  });
});
