import { apiAs, registerUser, signIn, type Account, type RunningServer } from './server.ts';

export interface ScheduledShowtime {
  movieId: string;
  movieTitle: string;
  showtimeId: string;
  auditorium: string;
  startsAt: string;
}

/**
 * As the admin, over HTTP: adds a movie and a showtime, in a new hall when `hall` is given, else in the first one.
 * Without `hoursFromNow` the start is a random hour slot far enough apart that repeated calls never overlap.
 */
export async function scheduleShowtime(
  server: RunningServer,
  opts: {
    title?: string;
    durationMinutes?: number;
    rating?: string;
    hall?: { name: string; rows: number; cols: number };
    hoursFromNow?: number;
    priceCents?: number;
  } = {},
): Promise<ScheduledShowtime & { admin: Account }> {
  const admin = await signIn(server.url, server.admin.email, server.admin.password);
  const api = apiAs(server.url, admin.token);
  const form = new FormData();
  const title = opts.title ?? `Test Feature ${Math.random().toString(36).slice(2, 7)}`;
  form.set('title', title);
  form.set('description', 'A film made for tests.');
  form.set('durationMinutes', String(opts.durationMinutes ?? 95));
  form.set('rating', opts.rating ?? 'PG-13');
  const movie = await api.post<{ id: string }>('/admin/movies', form);
  const hall = opts.hall
    ? await api.post<{ id: string; name: string }>('/admin/rooms', opts.hall)
    : (await api.get<{ id: string; name: string }[]>('/admin/rooms'))[0]!;
  const hours = opts.hoursFromNow ?? 24 + Math.floor(Math.random() * 2000) * 3;
  const startsAt = new Date(Math.ceil((Date.now() + hours * 3600_000) / 3600_000) * 3600_000).toISOString();
  const showtime = await api.post<{ id: string }>('/admin/showtimes', {
    movieId: movie.id,
    auditoriumId: hall.id,
    startsAt,
    priceCents: opts.priceCents ?? 1250,
  });
  return {
    admin,
    movieId: movie.id,
    movieTitle: title,
    showtimeId: showtime.id,
    auditorium: hall.name,
    startsAt,
  };
}

export interface BoughtTickets {
  customer: Account;
  bookingIds: string[];
  seats: { id: string; row: number; number: number }[];
}

/** As a new customer, over HTTP: holds `count` seats of the showtime and pays through the local test checkout. */
export async function buyTickets(
  server: RunningServer,
  showtimeId: string,
  count = 1,
): Promise<BoughtTickets> {
  const customer = await registerUser(server.url, { name: 'Paula Payer' });
  const api = apiAs(server.url, customer.token);
  const map = await api.get<{ seats: { id: string; row: number; number: number; status: string }[] }>(
    `/showtimes/${showtimeId}/seats`,
  );
  const seats = map.seats.filter((s) => s.status === 'AVAILABLE').slice(0, count);
  const hold = await api.post<{ bookingIds: string[] }>(`/showtimes/${showtimeId}/hold`, {
    seatIds: seats.map((s) => s.id),
  });
  const checkout = await api.post<{ sessionId: string; url: string }>('/pay/checkout', {
    bookingIds: hold.bookingIds,
  });
  const paid = await fetch(`${server.url}/api/pay/local/${checkout.sessionId}/pay`, {
    method: 'POST',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`Local payment failed: ${paid.status} ${await paid.text()}`);
  return { customer, bookingIds: hold.bookingIds, seats };
}

/**
 * As a customer who opened the link in their verification email (found in the admin outbox): the account's email is
 * verified, so counter sales to it reach the account (README, "Walk-in orders").
 */
export async function verifyEmail(server: RunningServer, account: Account): Promise<void> {
  const admin = await signIn(server.url, server.admin.email, server.admin.password);
  for (let tries = 0; tries < 100; tries++) {
    const { messages } = await apiAs(server.url, admin.token).get<{
      messages: { to: string; kind: string; text: string }[];
    }>('/admin/outbox');
    const mail = messages.find((m) => m.to === account.user.email && m.kind === 'email_verification');
    const token = /\/verify-email\?token=([\w%-]+)/.exec(mail?.text ?? '')?.[1];
    if (token) {
      await apiAs(server.url).post('/auth/verify-email', { token: decodeURIComponent(token) });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no verification email to ${account.user.email}`);
}
