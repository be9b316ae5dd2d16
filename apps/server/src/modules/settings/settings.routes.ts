import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SettingsSchema } from '@cinema/contract';

/** What every client may know of this cinema's configuration: test mode, currency, hold rules, time zone. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = {
    testMode: app.config.paymentProvider === 'local',
    currency: app.config.currency,
    holdMinutes: app.config.holdMinutes,
    maxHeldSeats: app.config.maxHeldSeats,
    timeZone: app.config.timeZone,
    ratingSystem: app.config.ratingSystem,
    filmWeekStart: app.config.filmWeekStart,
  };
  app.get(
    '/settings',
    {
      schema: {
        tags: ['settings'],
        summary:
          'Public settings: test mode (no real payments), currency, hold length and limit, the cinema’s time zone, its rating system, the weekday film weeks start on',
        response: { 200: SettingsSchema },
      },
    },
    async () => settings,
  );
};
