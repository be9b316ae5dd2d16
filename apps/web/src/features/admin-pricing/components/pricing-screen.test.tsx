import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceCard, TicketType } from '@cinema/contract';
import { api, ApiError } from '../../../lib/api-client';
import { PricingScreen } from './pricing-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

let types: TicketType[];
let cards: PriceCard[];

beforeEach(() => {
  types = [
    { id: 'adult', name: 'Adult', active: true, position: 0 },
    { id: 'child', name: 'Child', active: true, position: 1 },
    { id: 'vip', name: 'VIP', active: false, position: 2 },
  ];
  cards = [
    {
      id: 'card-1',
      name: 'Matinee',
      weekdays: [1, 2, 3, 4, 5],
      from: '10:00',
      to: '17:00',
      prices: [
        { ticketTypeId: 'adult', seatType: 'STANDARD', priceCents: 900 },
        { ticketTypeId: 'child', seatType: 'STANDARD', priceCents: 700 },
      ],
    },
  ];
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string, options) => {
    if (path === '/admin/ticket-types') return types;
    if (path === '/admin/price-cards') return cards;
    if (path === '/admin/price-cards/card-1' && options?.method === 'PUT') {
      const body = options.body as Omit<PriceCard, 'id'>;
      if (body.name === 'Taken') throw new ApiError('A price card "Taken" already exists', 409, 'conflict');
      cards = [{ id: 'card-1', ...body }];
      return cards[0];
    }
    throw new Error(`unexpected call: ${path}`);
  });
});

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <PricingScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the pricing page', () => {
  it('lists the cards with their days, window and lowest prices, and focuses its heading', async () => {
    renderScreen();
    const list = await screen.findByRole('list', { name: 'Price cards' }, { timeout: 5000 });
    expect(list).toHaveTextContent('Mon–Fri · 10:00–17:00');
    expect(list).toHaveTextContent('Adult from $9.00 · Child from $7.00');
    expect(screen.getByRole('heading', { level: 1, name: 'Pricing' })).toHaveFocus();
    expect(document.title).toBe('Pricing · Cinema');
  });

  it('edits a card whole: days, window and prices go to PUT, a refusal is said, and the list shows the change', async () => {
    const user = userEvent.setup();
    renderScreen();
    const list = await screen.findByRole('list', { name: 'Price cards' }, { timeout: 5000 });
    await user.click(within(list).getByRole('button', { name: /^Edit/ }));
    const form = screen.getByRole('form', { name: 'Edit Matinee' });
    // An inactive type is not offered on a card that does not price it.
    expect(within(form).queryByRole('spinbutton', { name: 'VIP, standard seat' })).toBeNull();
    expect(within(form).getByRole('spinbutton', { name: 'Adult, standard seat' })).toHaveValue(9);
    await user.click(within(form).getByRole('checkbox', { name: 'Fri' }));
    await user.clear(within(form).getByRole('spinbutton', { name: 'Child, standard seat' }));
    await user.type(within(form).getByRole('spinbutton', { name: 'Adult, premium seat' }), '11.5');

    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'Taken');
    await user.click(within(form).getByRole('button', { name: 'Save price card' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('A price card "Taken" already exists');

    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'Weekday matinee');
    await user.click(within(form).getByRole('button', { name: 'Save price card' }));
    expect(await screen.findByText('Saved Weekday matinee.')).toBeInTheDocument();
    expect(vi.mocked(api)).toHaveBeenCalledWith('/admin/price-cards/card-1', {
      method: 'PUT',
      body: {
        name: 'Weekday matinee',
        weekdays: [1, 2, 3, 4],
        from: '10:00',
        to: '17:00',
        prices: [
          { ticketTypeId: 'adult', seatType: 'STANDARD', priceCents: 900 },
          { ticketTypeId: 'adult', seatType: 'PREMIUM', priceCents: 1150 },
        ],
      },
    });
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Price cards' })).toHaveTextContent('Mon–Thu · 10:00–17:00'),
    );
    // Back to a new card's form.
    expect(screen.getByRole('form', { name: 'New price card' })).toBeInTheDocument();
  }, 20_000);
});
