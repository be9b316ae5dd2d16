import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api-client';
import { AddShowtimeForm } from './add-showtime-form';

vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: vi.fn(),
}));

const posted: unknown[] = [];

beforeEach(() => {
  posted.length = 0;
  vi.mocked(api).mockReset();
  vi.mocked(api).mockImplementation(async (path: string, options) => {
    if (path === '/admin/movies')
      return [
        {
          id: 'film',
          title: 'Quiet Signs',
          description: null,
          durationMinutes: 90,
          rating: null,
          posterUrl: null,
        },
      ];
    if (path === '/admin/rooms') return [{ id: 'hall', name: 'Hall 1', rows: 5, cols: 8, seatCount: 40 }];
    if (path === '/admin/price-cards') return [];
    if (path === '/settings') return { currency: 'USD', timeZone: 'UTC', testMode: true };
    if (path === '/admin/showtimes' && options?.method === 'POST') {
      posted.push(options.body);
      const body = options.body as { startsAt: string; attributes?: string[] };
      return {
        id: 'new',
        movieId: 'film',
        auditoriumId: 'hall',
        auditorium: 'Hall 1',
        startsAt: body.startsAt,
        priceCents: 1200,
        attributes: body.attributes ?? [],
      };
    }
    if (path === '/showtimes/new/prices') return { showtimeId: 'new', priceCard: cardAtStart };
    throw new Error(`unexpected call: ${path}`);
  });
});

/** The card the server says prices the new showtime at its start (null: its own price). */
let cardAtStart: { id: string; name: string } | null = null;
beforeEach(() => {
  cardAtStart = null;
});

/** Fills in a showtime of Quiet Signs in Hall 1, lets `more` tick further fields, and adds it. */
async function addShowtime(more?: (user: ReturnType<typeof userEvent.setup>) => Promise<void>) {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AddShowtimeForm />
    </QueryClientProvider>,
  );
  await screen.findByRole('option', { name: 'Quiet Signs' });
  await user.selectOptions(screen.getByRole('combobox', { name: 'Movie' }), 'film');
  await screen.findByRole('option', { name: /Hall 1/ });
  await user.selectOptions(screen.getByRole('combobox', { name: 'Hall' }), 'hall');
  await user.type(screen.getByLabelText(/Starts at/), '2030-05-04T20:00');
  await more?.(user);
  await user.click(screen.getByRole('button', { name: 'Add showtime' }));
}

// A card valid at its start prices the showtime: the notice names it, not the typed price nobody pays.
it('names the price card that prices a new showtime at its start', async () => {
  cardAtStart = { id: 'std', name: 'Standard' };
  await addShowtime();
  await screen.findByText(/Showtime added: .* in Hall 1, Standard prices\./);
  expect(screen.queryByText(/\$12\.00/)).toBeNull();
});

it('says the typed price when no card prices the new showtime', async () => {
  await addShowtime();
  await screen.findByText(/Showtime added: .* in Hall 1, \$12\.00\./);
});

// DESIGN §7.5: staff say what a showtime is (format, subtitles, accessibility) when they add it.
it('sends the chosen attributes and subtitles language with a new showtime', async () => {
  await addShowtime(async (user) => {
    await user.click(screen.getByRole('checkbox', { name: 'IMAX' }));
    await user.click(screen.getByRole('checkbox', { name: 'Captioned' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Subtitles' }), 'SUBTITLES_DE');
  });
  await waitFor(() => expect(posted).toHaveLength(1));
  expect(posted[0]).toMatchObject({
    movieId: 'film',
    auditoriumId: 'hall',
    attributes: ['IMAX', 'CAPTIONED', 'SUBTITLES_DE'],
  });
});
