import type { FastifyInstance } from 'fastify';
import { INSECURE_TEST_PASSWORD_HASHES, passwordHashOptions } from './modules/accounts/accounts.service.ts';
import { ensureAdmin } from './modules/accounts/admin-bootstrap.ts';
import { lockWalkInAccount, WALK_IN_EMAIL } from './modules/box-office/walk-in.ts';
import { seedDemoOnline } from './modules/demo/demo-online.ts';
import { seedDemoSales } from './modules/demo/demo-sales.ts';
import { demoTaxRates, seedDemoTaxes } from './modules/demo/demo-taxes.ts';
import { seedDemo } from './modules/demo/demo.service.ts';
import { ensureDefaultHalls } from './modules/halls/halls.service.ts';
import { convertLegacyPosters } from './modules/movies/posters.service.ts';
import { ensureDefaultTicketTypes, seedDemoPriceCards } from './modules/pricing/default-prices.ts';

export interface BootstrapReport {
  /** Lines to print once at start (the admin login, what was seeded). */
  messages: string[];
}

/**
 * Runs once when the server starts (not in buildApp, so tests stay quiet): locks the box office's walk-in account,
 * ensures the admin account, the default halls and, on an empty database, the demo catalogue.
 */
export async function bootstrap(app: FastifyInstance): Promise<BootstrapReport> {
  const messages: string[] = [];
  if (passwordHashOptions()) {
    app.log.warn(
      `${INSECURE_TEST_PASSWORD_HASHES}=1: new password hashes are weak (a test suite's setting, never a real server's)`,
    );
  }
  // Before the admin: a walk-in account someone had made an admin is demoted, and an admin is then ensured.
  const walkIn = await lockWalkInAccount(app.database.db);
  if (walkIn?.wasReachable) {
    app.log.warn(
      { userId: walkIn.id, email: WALK_IN_EMAIL },
      'walk-in account locked: it had a password, a staff role, sessions or links; nobody can sign in to it now',
    );
    messages.push(`Walk-in account ${WALK_IN_EMAIL} locked: nobody can sign in to it any more`);
  }
  const admin = await ensureAdmin(app.database.db, app.config);
  if (admin) messages.push(admin.message);
  const converted = await convertLegacyPosters(app.database.db);
  if (converted > 0) messages.push(`Posters re-encoded as WebP: ${converted}`);
  const halls = await ensureDefaultHalls(app.database.db);
  if (halls.length > 0) messages.push(`Halls created: ${halls.map((h) => h.name).join(', ')}`);
  const types = await ensureDefaultTicketTypes(app.database.db, app.config.ratingSystem);
  if (types.length > 0) messages.push(`Ticket types: ${types.join(', ')}`);
  if (app.config.seedDemo) {
    const cards = await seedDemoPriceCards(app.database.db);
    if (cards.length > 0) messages.push(`Price cards: ${cards.join(', ')}`);
    const demo = await seedDemo(app.database.db, app.config.timeZone, new Date(), app.config.ratingSystem);
    if (demo) {
      messages.push(`Demo catalogue: ${demo.movies} movies, ${demo.showtimes} showtimes`);
      if (await seedDemoTaxes(app.database.db, app.config.currency)) {
        const r = demoTaxRates(app.config.currency);
        messages.push(
          `Taxes: tickets ${r.ticket}%, food and drink ${r.product}%, fees ${r.fee}%; an online booking fee`,
        );
      }
      // Sold at the counter, so the schedule shows "Sold out" and "Selling fast" and the reports have sales.
      const sold = await seedDemoSales({ ...app.deps, providers: app.paymentProviders });
      if (sold > 0) messages.push(`Demo sales: ${sold} tickets sold at the box office`);
      // Gift cards (one partly spent) and online orders with food, so gift cards and the kitchen have something too.
      const online = await seedDemoOnline({
        ...app.deps,
        providers: app.paymentProviders,
        seatMaps: app.seatMaps,
        bestSeats: app.bestSeats,
      });
      if (online.giftCards > 0) {
        messages.push(
          `Demo gift cards: ${online.giftCards}; online orders for the kitchen to prepare: ${online.kitchenOrders}`,
        );
      }
    }
  }
  return { messages };
}
