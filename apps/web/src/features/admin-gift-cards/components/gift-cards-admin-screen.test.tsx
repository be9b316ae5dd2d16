import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GiftCardLedger, StaffGiftCard } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { clearSession, saveSession } from '../../../lib/session';
import { GiftCardsAdminScreen } from './gift-cards-admin-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const CODE = '7K2M-9QXD-4TRA-HV1E';
const card: StaffGiftCard = {
  code: CODE,
  status: 'active',
  initialCents: 5000,
  balanceCents: 3800,
  currency: 'USD',
  expiresAt: '2031-11-27T10:00:00.000Z',
  createdAt: '2026-11-27T10:00:00.000Z',
  recipientEmail: 'bea@example.com',
  orderRef: 'K7Q-4MX2',
};
const ledger: GiftCardLedger = {
  card,
  entries: [
    {
      kind: 'SOLD',
      amountCents: 5000,
      balanceAfterCents: 5000,
      at: '2026-11-27T10:00:00.000Z',
      by: 'alice@example.com',
      orderRef: 'K7Q-4MX2',
      note: null,
    },
    {
      kind: 'REDEEMED',
      amountCents: -1200,
      balanceAfterCents: 3800,
      at: '2026-11-27T11:00:00.000Z',
      by: 'bea@example.com',
      orderRef: 'P3R-8ZW7',
      note: null,
    },
  ],
};
const voided: GiftCardLedger = {
  card: { ...card, status: 'voided', balanceCents: 0 },
  entries: [
    ...ledger.entries,
    {
      kind: 'VOIDED',
      amountCents: -3800,
      balanceAfterCents: 0,
      at: '2026-11-27T12:00:00.000Z',
      by: 'admin@example.com',
      orderRef: null,
      note: 'Reported stolen',
    },
  ],
};

beforeAll(() => {
  // jsdom has no modal dialogs: open it in place.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

let voidedYet = false;
beforeEach(() => {
  voidedYet = false;
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string, options?: { method?: string }) => {
    if (path === '/admin/gift-cards?q=bea%40example.com') return { cards: [card] };
    if (path === `/admin/gift-cards/${encodeURIComponent(CODE)}/void` && options?.method === 'POST') {
      voidedYet = true;
      return voided;
    }
    if (path === `/admin/gift-cards/${encodeURIComponent(CODE)}`) return voidedYet ? voided : ledger;
    if (path.startsWith('/admin/gift-cards/liability?date='))
      return { date: path.slice(-10), currency: 'USD', outstandingCents: 3800, cards: [card] };
    throw new Error(`unexpected call: ${path}`);
  });
});
afterEach(() => clearSession());

function renderAt(url: string, role: 'ADMIN' | 'STAFF') {
  saveSession('token', { id: 'u1', name: 'Desk', email: 'desk@example.com', role });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <GiftCardsAdminScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the gift cards desk', () => {
  it('finds the cards of an email, shows a card’s ledger (who and when), and voids it with a reason after a confirmation', async () => {
    const user = userEvent.setup();
    renderAt('/admin/gift-cards?q=bea%40example.com', 'ADMIN');
    const list = await screen.findByRole('list', { name: 'Gift cards matching bea@example.com' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('$38.00 of $50.00');
    await user.click(within(list).getByRole('link', { name: CODE }));

    const entries = await screen.findByRole('list', { name: `Ledger of ${CODE}` });
    const [sold, redeemed] = within(entries).getAllByRole('listitem');
    expect(sold).toHaveTextContent(/Sold\+\$50\.00leaves \$50\.00.*alice@example\.com · order K7Q-4MX2/);
    expect(redeemed).toHaveTextContent(/Redeemed−\$12\.00leaves \$38\.00.*bea@example\.com · order P3R-8ZW7/);
    expect(screen.getByText('Sent to').nextSibling).toHaveTextContent('bea@example.com');

    await user.click(screen.getByRole('button', { name: 'Void card…' }));
    const dialog = screen.getByRole('dialog', { name: `Void gift card ${CODE}?` });
    expect(dialog).toHaveAccessibleDescription(/Its balance of \$38\.00 goes to zero/);
    // No reason, no void.
    await user.click(within(dialog).getByRole('button', { name: 'Void the card' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give a reason for voiding the card');
    expect(vi.mocked(api)).not.toHaveBeenCalledWith(expect.stringMatching(/\/void$/), expect.anything());

    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Reported stolen');
    await user.click(within(dialog).getByRole('button', { name: 'Void the card' }));
    expect(await screen.findByText(`Gift card ${CODE} is void.`)).toHaveAttribute('role', 'status');
    expect(vi.mocked(api)).toHaveBeenCalledWith(`/admin/gift-cards/${encodeURIComponent(CODE)}/void`, {
      method: 'POST',
      body: { reason: 'Reported stolen' },
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Void card…' })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('gift-card')).getByText('Void')).toBeInTheDocument();
    expect(screen.getByText('Reported stolen')).toBeInTheDocument();

    // The liability on today's date, by default.
    expect(await screen.findByTestId('gift-card-liability')).toHaveTextContent('$38.00 outstanding on');
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  }, 20_000);

  it('opens a card typed as its code at once; staff read it but neither void it nor see the liability', async () => {
    renderAt(`/admin/gift-cards?q=${CODE.toLowerCase()}`, 'STAFF');
    expect(await screen.findByRole('list', { name: `Ledger of ${CODE}` })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Void card…' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Outstanding balance' })).not.toBeInTheDocument();
    expect(vi.mocked(api)).not.toHaveBeenCalledWith(
      expect.stringMatching(/liability|\?q=/),
      expect.anything(),
    );
  });
});
