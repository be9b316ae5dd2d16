import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api-client';
import { CheckoutCancelScreen } from './checkout-cancel-screen';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));
vi.mock('../../../lib/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/session')>()),
  getToken: () => 'token',
}));

const renderCancel = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <CheckoutCancelScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('the cancel page', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.mocked(api).mockReset();
  });

  it('leads back to the seats while they are still held, and keeps the spec’s texts', async () => {
    sessionStorage.setItem('cinema.checkoutShowtime', 'show-1');
    vi.mocked(api).mockResolvedValue({
      seats: [
        { id: 'a', status: 'HELD', heldByMe: true },
        { id: 'b', status: 'HELD', heldByMe: true },
        { id: 'c', status: 'AVAILABLE' },
      ],
    });
    renderCancel();
    const back = await screen.findByRole('link', { name: 'Back to your seats' });
    expect(back.getAttribute('href')).toBe('/showtimes/show-1/seats');
    expect(
      screen.getByText('Nothing was charged. Your 2 seats are still held for a few minutes.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/^Payment Cancelled\./);
    expect(document.title).toBe('Payment cancelled · Cinema');
  });

  it('sends the customer to the movies when nothing is held any more', async () => {
    sessionStorage.setItem('cinema.checkoutShowtime', 'show-1');
    vi.mocked(api).mockResolvedValue({ seats: [{ id: 'a', status: 'AVAILABLE' }] });
    renderCancel();
    expect(
      await screen.findByText('Nothing was charged. Pick your seats again from the movie’s showtimes.'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Back to your seats' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Movies' })).toBeTruthy();
  });
});
