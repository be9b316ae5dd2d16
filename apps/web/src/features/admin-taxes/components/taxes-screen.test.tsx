import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fees, Taxes } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { clearSession, saveSession } from '../../../lib/session';
import { TaxesScreen } from './taxes-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const DRINKS = '0190d4b8-0000-7000-8000-00000000000d';
const BEER = '0190d4b8-0000-7000-8000-0000000000be';
const CHILD = '0190d4b8-0000-7000-8000-0000000000c1';
const taxes: Taxes = {
  mode: 'inclusive',
  modeFrom: 'environment',
  rates: [
    { kind: 'TICKET', ratePercent: 7 },
    { kind: 'PRODUCT', ratePercent: 19 },
    { kind: 'PRODUCT', category: DRINKS, categoryName: 'Drinks', ratePercent: 10 },
  ],
};
const noFee = { perTicketCents: 0, perOrderCents: 0, exemptTicketTypeIds: [], refundable: false };
const fees: Fees = { online: { ...noFee, perTicketCents: 75 }, counter: noFee };
const menu = {
  categories: [{ id: DRINKS, name: 'Drinks', position: 0 }],
  products: [{ id: BEER, categoryId: DRINKS, category: 'Drinks', name: 'Craft beer' }],
};

let sent: { path: string; body: unknown }[] = [];
beforeEach(() => {
  sent = [];
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string, options?: { method?: string; body?: unknown }) => {
    if (options?.method === 'PUT') {
      sent.push({ path, body: options.body });
      return options.body;
    }
    if (path === '/admin/taxes') return taxes;
    if (path === '/admin/fees') return fees;
    if (path === '/admin/concessions') return menu;
    if (path === '/admin/ticket-types') return [{ id: CHILD, name: 'Child', active: true }];
    throw new Error(`unexpected call: ${path}`);
  });
});
afterEach(() => clearSession());

function renderScreen() {
  saveSession('token', { id: 'u1', name: 'Boss', email: 'boss@example.com', role: 'ADMIN' });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/admin/taxes']}>
        <TaxesScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('/admin/taxes', () => {
  it('saves the mode, the kinds’ rates and a product’s own rate beside its category’s', async () => {
    const user = userEvent.setup();
    renderScreen();
    const form = await screen.findByRole('form', { name: 'Tax rates' });
    expect(within(form).getByText('Set by TAX_MODE until you save a choice here.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Tickets (%)')).toHaveValue(7);
    expect(within(form).getByLabelText('Booking fees (%)')).toHaveValue(0);
    expect(within(form).getByRole('combobox', { name: 'Applies to' })).toHaveValue(`category:${DRINKS}`);

    await user.click(within(form).getByRole('radio', { name: /^Have tax added/ }));
    await user.click(within(form).getByRole('button', { name: 'Add a rate for a category or product' }));
    const [, added] = within(form).getAllByRole('combobox', { name: 'Applies to' });
    expect(added).toHaveValue(`product:${BEER}`);
    const [, rate] = within(form).getAllByRole('spinbutton', { name: 'Rate (%)' });
    await user.clear(rate!);
    await user.type(rate!, '20');
    await user.click(within(form).getByRole('button', { name: 'Save tax rates' }));
    await within(form).findByText('Tax rates saved.');
    expect(sent).toEqual([
      {
        path: '/admin/taxes',
        body: {
          mode: 'exclusive',
          rates: [
            { kind: 'TICKET', ratePercent: 7 },
            { kind: 'PRODUCT', ratePercent: 19 },
            { kind: 'FEE', ratePercent: 0 },
            { kind: 'PRODUCT', category: DRINKS, ratePercent: 10 },
            { kind: 'PRODUCT', productId: BEER, ratePercent: 20 },
          ],
        },
      },
    ]);
  });

  it('saves the booking fees in minor units, with exempt ticket types and whether they are refunded', async () => {
    const user = userEvent.setup();
    renderScreen();
    const form = await screen.findByRole('form', { name: 'Booking fees' });
    const online = within(form).getByRole('group', { name: 'Online' });
    expect(within(online).getByLabelText('Per ticket')).toHaveValue(0.75);
    await user.click(within(online).getByRole('checkbox', { name: 'Child' }));
    await user.click(within(online).getByRole('checkbox', { name: 'Refunded with the tickets' }));
    const counter = within(form).getByRole('group', { name: 'At the counter' });
    await user.clear(within(counter).getByLabelText('Per order'));
    await user.type(within(counter).getByLabelText('Per order'), '0.50');
    await user.click(within(form).getByRole('button', { name: 'Save booking fees' }));
    await within(form).findByText('Booking fees saved.');
    expect(sent).toEqual([
      {
        path: '/admin/fees',
        body: {
          online: { perTicketCents: 75, perOrderCents: 0, exemptTicketTypeIds: [CHILD], refundable: true },
          counter: { perTicketCents: 0, perOrderCents: 50, exemptTicketTypeIds: [], refundable: false },
        },
      },
    ]);
  });
});
