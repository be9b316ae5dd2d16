import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ReactNode } from 'react';
import type { LookupResponse, Order, Ticket, User } from '@cinema/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api-client';
import { i18n } from '../lib/i18n';
import { englishLeftovers, visibleTexts } from '../test/english-leftovers';
import { LoginScreen } from '../features/auth/components/login-screen';
import { RegisterScreen } from '../features/auth/components/register-screen';
import { ForgotPasswordScreen } from '../features/auth/components/forgot-password-screen';
import { ResetPasswordScreen } from '../features/auth/components/reset-password-screen';
import { ProfileScreen } from '../features/profile/components/profile-screen';
import { MyTicketsScreen } from '../features/tickets/components/my-tickets-screen';
import { CheckoutSuccessScreen } from '../features/checkout/components/checkout-success-screen';
import { CheckoutCancelScreen } from '../features/checkout/components/checkout-cancel-screen';
import { ErrorScreen } from '../app/error-boundary';

vi.mock('../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/api-client')>()),
  api: vi.fn(),
}));
vi.mock('../lib/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/session')>()),
  getToken: () => 'token',
}));

const seat = { row: 2, number: 3, rowLabel: 'B', type: 'PREMIUM' as const };
const ticket: Ticket = {
  bookingId: 'b-1',
  movie: { title: 'Nosferatu', rating: null, durationMinutes: 94 },
  auditorium: 'Saal 1',
  seat,
  startsAt: '2026-12-01T19:30:00.000Z',
  checkedInAt: null,
  testMode: true,
  orderRef: 'K7Q2M9',
  ticketType: 'Erwachsene',
};
const ticketLine = (unitPriceCents: number) =>
  ({
    kind: 'TICKET',
    quantity: 1,
    unitPriceCents,
    taxRateBp: 0,
    taxCents: 0,
    name: 'Nosferatu',
    unitCents: unitPriceCents,
    taxRate: 0,
    totalCents: unitPriceCents,
  }) as const;
const order: Order = {
  ref: 'K7Q2M9',
  status: 'partially_refunded',
  createdAt: '2026-11-24T10:00:00.000Z',
  paidAt: '2026-11-24T10:01:00.000Z',
  lines: [
    {
      bookingId: 'b-1',
      movie: 'Nosferatu',
      startsAt: ticket.startsAt,
      auditorium: 'Saal 1',
      seat,
      ticketType: 'Erwachsene',
      listPriceCents: 1200,
      discountCents: 200,
      priceCents: 1000,
      status: 'confirmed',
      ...ticketLine(1200),
    },
    {
      ...{ bookingId: null, movie: 'Nosferatu', startsAt: ticket.startsAt, auditorium: 'Saal 1' },
      seat: { row: 2, number: 4, rowLabel: 'B' },
      ticketType: 'Erwachsene',
      listPriceCents: 1200,
      discountCents: 0,
      priceCents: 1200,
      status: 'refunded',
      ...ticketLine(1200),
    },
  ],
  subtotalCents: 2400,
  discountCents: 200,
  totalCents: 2200,
  refundedCents: 1200,
  refunds: [{ amountCents: 1200, status: 'pending', createdAt: '2026-11-24T11:00:00.000Z' }],
  promoCode: 'HERBST',
  currency: 'EUR',
  testMode: true,
  payments: [{ method: 'CARD', amountCents: 2200, refundedCents: 1200 }],
  taxCents: 0,
  taxMode: 'inclusive',
};
const me: User = { id: 'u-1', name: 'Jonas', email: 'jonas@example.com', role: 'USER' };
const lookup: LookupResponse = {
  sessionId: 's-1',
  status: 'paid',
  tickets: [ticket],
  refundedSeats: [{ row: 2, number: 4, rowLabel: 'B' }],
  testMode: true,
  orderRef: 'K7Q2M9',
};

function answer(path: string): unknown {
  if (path === '/user/me') return me;
  if (path === '/me/tickets') return { tickets: [ticket] };
  if (path === '/me/orders') return { orders: [order], nextPage: null };
  if (path.startsWith('/me/orders/')) return order;
  if (path.startsWith('/pay/lookup')) return lookup;
  if (path.endsWith('/seats')) return { seats: [{ id: 'a', status: 'HELD', heldByMe: true }] };
  throw new Error(`no answer for ${path}`);
}

function renderGerman(element: ReactNode, url = '/') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[url]}>{element}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('customer screens in German', () => {
  beforeAll(async () => {
    vi.mocked(api).mockImplementation(async (path: string) => answer(path) as never);
    sessionStorage.setItem('cinema.checkoutShowtime', 'show-1');
    await i18n.changeLanguage('de');
  });
  afterAll(async () => {
    sessionStorage.clear();
    await i18n.changeLanguage('en');
  });

  const screens: [string, ReactNode, string?, string?][] = [
    ['sign-in', <LoginScreen key="l" />, '/login', 'Anmelden'],
    ['register', <RegisterScreen key="r" />, '/register', 'Konto erstellen'],
    ['forgot password', <ForgotPasswordScreen key="f" />, '/forgot-password', 'Passwort vergessen?'],
    [
      'reset password',
      <ResetPasswordScreen key="p" />,
      '/reset-password?token=t',
      'Wähle ein neues Passwort',
    ],
    [
      'reset link incomplete',
      <ResetPasswordScreen key="p2" />,
      '/reset-password',
      'Wähle ein neues Passwort',
    ],
    ['profile', <ProfileScreen key="pr" onLogout={async () => {}} />, '/profile', 'Profil'],
    ['My Tickets', <MyTicketsScreen key="t" />, '/tickets', 'Meine Tickets'],
    [
      'checkout success',
      <CheckoutSuccessScreen key="s" />,
      '/checkout/success?session_id=s-1',
      'Zahlung erfolgreich',
    ],
    ['checkout cancel', <CheckoutCancelScreen key="c" />, '/checkout/cancel'],
    ['error', <ErrorScreen key="e" error={null} />, '/', 'Etwas ist schiefgelaufen.'],
  ];

  it.each(screens)('%s shows no English catalogue text', async (_name, element, url, heading) => {
    renderGerman(element, url);
    if (heading) expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    else expect((await screen.findAllByText(/Plätze|Platz/)).length).toBeGreaterThan(0);
    // Every query answered and drawn (the order, the refunds, the QR codes' labels).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const texts = visibleTexts();
    expect(texts.length).toBeGreaterThan(1);
    expect(englishLeftovers(texts)).toEqual([]);
  });

  it('finds English when there is some (the check itself)', async () => {
    await i18n.changeLanguage('en');
    renderGerman(<LoginScreen />, '/login');
    expect(englishLeftovers(visibleTexts())).toEqual(
      expect.arrayContaining(['Sign in', 'Forgot password?', 'Create an account']),
    );
    await i18n.changeLanguage('de');
  });

  it('writes money, dates and seats the German way', async () => {
    renderGerman(<MyTicketsScreen />, '/tickets');
    expect(await screen.findByText('Gesamt 22,00 €')).toBeTruthy();
    expect(screen.getAllByText(/Reihe B, Platz 3 · Premium/).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/01\.12\.2026/).length).toBeGreaterThan(0);
  });
});
