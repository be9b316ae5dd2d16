import { z } from 'zod';
import {
  EmailSchema,
  PasswordSchema,
  RATING_SYSTEM_NAMES,
  SEAT_GAP_RULES,
  TAX_MODES,
} from '@cinema/contract';

/** Weekdays in ISO order (Monday 1 … Sunday 7). */
const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const flag = (defaultValue: '0' | '1') =>
  z
    .enum(['0', '1', 'true', 'false'], { message: 'must be 0 or 1' })
    .default(defaultValue)
    .transform((v) => v === '1' || v === 'true');

/** One schema over process.env, parsed once at start; a bad value stops the process naming the variable. */
export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    /** PostgreSQL timeouts in ms: waiting for a connection, one statement, waiting for a row lock. */
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
    DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    ADMIN_EMAIL: EmailSchema.optional(),
    // The same policy as every account: a weak admin password stops the start, naming the variable.
    ADMIN_PASSWORD: PasswordSchema.optional(),
    SEED_DEMO: flag('1'),
    HOLD_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(10),
    /** How long seats offered to the next customer of a waiting list stay held for them (DESIGN §7.6). */
    WAITLIST_OFFER_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(15),
    /**
     * Wheelchair spaces and companion seats stay kept for those who need them until this many minutes before the
     * start (or until every other seat is taken, or staff release them earlier), then sell as standard seats (§7.5).
     */
    ACCESSIBLE_RELEASE_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(14 * 24 * 60)
      .default(60),
    /** The door lets a showtime's ticket holders in from this many minutes before the start until its end. */
    ENTRY_OPENS_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(60),
    /**
     * A gift card is valid this many months from its sale (DESIGN §7.3). Some jurisdictions forbid less than 5 years.
     */
    GIFT_CARD_MONTHS: z.coerce
      .number()
      .int()
      .min(1)
      .max(12 * 100)
      .default(60),
    /** Live held seats one customer may have across every showtime (a rule of the cinema: always on). */
    MAX_HELD_SEATS: z.coerce.number().int().min(1).max(1000).default(10),
    /** Live held seats from one client address across all its accounts (an abuse limit: off with RATE_LIMIT=off). */
    MAX_HELD_SEATS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(40),
    /** The cinema's time zone: price cards' weekdays and hours, recurring showtimes. Default: the server's. */
    CINEMA_TIME_ZONE: z
      .string()
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as Europe/Berlin')
      .default(Intl.DateTimeFormat().resolvedOptions().timeZone),
    /** The weekday film weeks start on (film hire, box-office returns): a day name, English, any case. */
    FILM_WEEK_START: z
      .string()
      .transform((d) => d.trim().toLowerCase())
      .pipe(z.enum(WEEKDAY_NAMES, { message: `must be a weekday: ${WEEKDAY_NAMES.join(', ')}` }))
      .default('friday'),
    /** The single-seat gap rule (DESIGN §6.2): warn (the web app explains, Hold still works), enforce (409), off. */
    SEAT_GAP_RULE: z.enum(SEAT_GAP_RULES, { message: 'must be warn, enforce or off' }).default('warn'),
    /** The cinema's currency (ISO 4217): prices are stored in its minor units; Stripe charges in it. */
    CURRENCY: z
      .string()
      .transform((c) => c.trim().toUpperCase())
      .refine(
        (c) => /^[A-Z]{3}$/.test(c) && Intl.supportedValuesOf('currency').includes(c),
        'must be an ISO 4217 currency code such as USD, EUR or GBP',
      )
      .default('USD'),
    /** The age ratings the cinema works in (DESIGN §7.5): its certificates, each with its minimum age. */
    RATING_SYSTEM: z
      .string()
      .transform((s) => s.trim().toUpperCase())
      .pipe(z.enum(RATING_SYSTEM_NAMES, { message: `must be one of ${RATING_SYSTEM_NAMES.join(', ')}` }))
      .default('MPAA'),
    /** Prices include tax (`inclusive`) or have it added (`exclusive`), until an admin chooses at /admin/taxes. */
    TAX_MODE: z.enum(TAX_MODES, { message: 'must be inclusive or exclusive' }).default('inclusive'),
    /** Who sells, as receipts say: the cinema's name, its address (`|` starts a new line) and its tax number. */
    CINEMA_NAME: z.string().trim().min(1).max(120).default('Cinema'),
    CINEMA_ADDRESS: z.string().trim().max(300).optional(),
    CINEMA_TAX_NUMBER: z.string().trim().max(60).optional(),
    PAYMENT_PROVIDER: z.enum(['local', 'stripe']).default('local'),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
    /** Where the Stripe SDK sends its calls; tests point it at a local fake API. */
    STRIPE_API_URL: z.url().optional(),
    PUBLIC_URL: z.url().optional(),
    /** Where email goes (smtp:// or smtps://, user and password in the URL); unset: kept in the outbox only. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .refine((u) => URL.canParse(u), 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** The sender of every email, e.g. "Cinema <tickets@example.com>"; default no-reply at PUBLIC_URL's host. */
    MAIL_FROM: z.string().min(3).max(200).optional(),
    /** Where the success and cancel pages are (a client on another origin): default PUBLIC_URL. */
    CLIENT_URL: z.url().optional(),
    /** Origins allowed to call the API and Socket.IO from a browser (comma-separated); unset: our own only. */
    CORS_ORIGINS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z
            .url()
            .refine(
              (u) => URL.canParse(u) && new URL(u).origin === u.replace(/\/$/, ''),
              'each must be an origin such as https://tickets.example.com',
            ),
        ),
      )
      .optional(),
    RATE_LIMIT: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
    /** A rehearsal of a rush before listening (warm-up.ts, decision 042); off for short-lived servers (tests). */
    WARM_UP: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
    /** How many reverse proxies in front of the server to trust for the client address (X-Forwarded-For). */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Seconds between sweeps of expired holds. */
    SWEEP_SECONDS: z.coerce.number().positive().max(3600).default(5),
    WEB_DIST: z.string().optional(),
    /** GET /metrics (Prometheus): off (404), or on and open to anyone who can reach it. */
    METRICS: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
    /** Serves GET /metrics to `Authorization: Bearer <this>` only (turns metrics on). */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Server processes sharing the port (node:cluster); more than one needs DATABASE_URL and REDIS_URL. */
    WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  })
  .superRefine((c, ctx) => {
    if (c.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!c[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENT_PROVIDER=stripe' });
      }
    }
    if (c.WORKERS > 1 && !c.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: 'more than 1 needs DATABASE_URL: the embedded database lives inside one process',
      });
    }
    if (c.WORKERS > 1 && !c.REDIS_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: 'more than 1 needs REDIS_URL, so that seat updates reach the clients of every worker',
      });
    }
    if (c.ADMIN_PASSWORD && !c.ADMIN_EMAIL) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_EMAIL'], message: 'is required with ADMIN_PASSWORD' });
    }
  })
  .transform((c) => ({
    nodeEnv: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    dbTimeouts: {
      connectMs: c.DB_CONNECT_TIMEOUT_MS,
      statementMs: c.DB_STATEMENT_TIMEOUT_MS,
      lockMs: c.DB_LOCK_TIMEOUT_MS,
    },
    redisUrl: c.REDIS_URL,
    adminEmail: c.ADMIN_EMAIL,
    adminPassword: c.ADMIN_PASSWORD,
    seedDemo: c.SEED_DEMO,
    holdMinutes: c.HOLD_MINUTES,
    waitlistOfferMinutes: c.WAITLIST_OFFER_MINUTES,
    accessibleReleaseMinutes: c.ACCESSIBLE_RELEASE_MINUTES,
    entryOpensMinutes: c.ENTRY_OPENS_MINUTES,
    maxHeldSeats: c.MAX_HELD_SEATS,
    giftCardMonths: c.GIFT_CARD_MONTHS,
    maxHeldSeatsPerAddress: c.MAX_HELD_SEATS_PER_ADDRESS,
    seatGapRule: c.SEAT_GAP_RULE,
    timeZone: c.CINEMA_TIME_ZONE,
    /** ISO weekday (Monday 1 … Sunday 7). */
    filmWeekStart: WEEKDAY_NAMES.indexOf(c.FILM_WEEK_START) + 1,
    currency: c.CURRENCY,
    ratingSystem: c.RATING_SYSTEM,
    taxMode: c.TAX_MODE,
    cinema: {
      name: c.CINEMA_NAME,
      address:
        c.CINEMA_ADDRESS?.split('|')
          .map((l) => l.trim())
          .filter(Boolean) ?? [],
      taxNumber: c.CINEMA_TAX_NUMBER ?? null,
    },
    paymentProvider: c.PAYMENT_PROVIDER,
    stripe: {
      secretKey: c.STRIPE_SECRET_KEY,
      webhookSecret: c.STRIPE_WEBHOOK_SECRET,
      publishableKey: c.STRIPE_PUBLISHABLE_KEY,
      apiUrl: c.STRIPE_API_URL,
    },
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    smtpUrl: c.SMTP_URL,
    mailFrom:
      c.MAIL_FROM ?? `Cinema <no-reply@${c.PUBLIC_URL ? new URL(c.PUBLIC_URL).hostname : 'localhost'}>`,
    clientUrl: (c.CLIENT_URL ?? c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    corsOrigins: c.CORS_ORIGINS?.flatMap((o) => (URL.canParse(o) ? [new URL(o).origin] : [])) ?? [],
    rateLimit: c.RATE_LIMIT === 'on',
    warmUp: c.WARM_UP === 'on',
    trustProxyHops: c.TRUST_PROXY,
    logLevel: c.LOG_LEVEL,
    sweepSeconds: c.SWEEP_SECONDS,
    webDist: c.WEB_DIST,
    metrics: { enabled: c.METRICS === 'on' || c.METRICS_TOKEN !== undefined, token: c.METRICS_TOKEN },
    workers: c.WORKERS,
  }));

export type Config = z.output<typeof ConfigSchema>;

/**
 * The address of one of the web app's pages for links and redirects from the server: relative when the web app is
 * ours (CLIENT_URL = PUBLIC_URL), else on CLIENT_URL's origin.
 */
export function clientPage(config: Pick<Config, 'clientUrl' | 'publicUrl'>, path: string): string {
  return config.clientUrl === config.publicUrl ? path : `${config.clientUrl}${path}`;
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(clean);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** A configuration for tests and tools: defaults plus overrides, no process.env. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: '0', ...overrides });
}
