import type { FastifySchemaValidationError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AuthResponseSchema,
  ErrorSchema,
  ForgotPasswordBodySchema,
  LoginBodySchema,
  OkSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PasswordChangeBodySchema,
  ProfileBodySchema,
  RegisterBodySchema,
  ResetPasswordBodySchema,
  UserSchema,
  VerifyEmailBodySchema,
  VerifyEmailResponseSchema,
} from '@cinema/contract';
import { AppError } from '../../errors.ts';
import { perUser } from '../../plugins/rate-limit.ts';
import {
  LOGIN_LOCK_FAILURES,
  LOGIN_LOCK_MINUTES,
  changePassword,
  ownAccount,
  registerUser,
  signIn,
  signOut,
  updateProfile,
} from './accounts.service.ts';
import { inBackground } from '../mail/outbox.service.ts';
import {
  RESET_EMAILS_PER_HOUR,
  RESET_LINK_MINUTES,
  requestPasswordReset,
  resetPassword,
} from './password-reset.service.ts';
import {
  VERIFY_EMAILS_PER_HOUR,
  VERIFY_LINK_HOURS,
  requestEmailVerification,
  verifyEmail,
} from './email-verification.service.ts';
import { askedLanguage, textsIn, type Language } from '../../i18n.ts';

/** Per-address request limits (lifted with RATE_LIMIT=off; the login-failure lock is separate and stays on). */
export const ACCOUNT_RATE_LIMITS = {
  register: { max: 20, timeWindow: '10 minutes' },
  login: { max: 30, timeWindow: '1 minute' },
  password: { max: 20, timeWindow: '15 minutes' },
  forgotPassword: { max: 5, timeWindow: '15 minutes' },
  resetPassword: { max: 20, timeWindow: '15 minutes' },
  verifyEmail: { max: 20, timeWindow: '15 minutes' },
} as const;

const PASSWORD_FIELDS = new Set(['/password', '/newPassword']);
const PASSWORD_POLICY_CHECKS = new Set(['too_small', 'too_big', 'invalid_format']);

/**
 * A password that breaks the policy is a 400 `weak_password` saying everything it lacks in one sentence
 * ("Password must be at least 8 characters, contain a number and contain a symbol"); any other invalid input
 * keeps the usual `bad_request` message.
 */
/** Which rule a password message of the contract states (PASSWORD_CHARACTER_RULES and the length bounds). */
const passwordRuleKey = (message: string) =>
  /at least/.test(message)
    ? 'min'
    : /at most/.test(message)
      ? 'max'
      : /uppercase/.test(message)
        ? 'upper'
        : /lowercase/.test(message)
          ? 'lower'
          : /number/.test(message)
            ? 'number'
            : 'symbol';

const weakPasswordFormatter = (errors: FastifySchemaValidationError[]): Error => {
  const policy = errors.filter(
    (e) => PASSWORD_FIELDS.has(e.instancePath) && PASSWORD_POLICY_CHECKS.has(e.keyword),
  );
  if (policy.length === 0) return new Error(errors[0]?.message ?? 'Invalid input');
  const [first, ...rest] = policy.map((e) => e.message ?? '');
  const parts = [first, ...rest.map((m) => m.replace(/^Password must /, ''))];
  const sentence = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  // In another language: the same rules, each from the catalogue (password.*), joined the language's way.
  const rules = policy.map((e) => passwordRuleKey(e.message ?? ''));
  const localized = (language: Language) => {
    const t = textsIn(language);
    const list = new Intl.ListFormat(language, { type: 'conjunction' }).format(
      rules.map((rule) => t(`password.${rule}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })),
    );
    return t('password.sentence', { rules: list });
  };
  return new AppError(400, 'weak_password', `${sentence}.`, {}, localized);
};

const signedIn = { security: [{ bearer: [] }] };

/** Registration, sign-in and sign-out, and the signed-in user's own account. */
export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/register',
    {
      config: { rateLimit: ACCOUNT_RATE_LIMITS.register },
      schemaErrorFormatter: weakPasswordFormatter,
      schema: {
        tags: ['accounts'],
        summary: 'Create a customer account and sign it in',
        description:
          'Passwords: 8–72 characters with an uppercase letter, a lowercase letter, a number and a symbol.',
        body: RegisterBodySchema,
        response: { 201: AuthResponseSchema, 400: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const language = askedLanguage(request);
      const registered = await registerUser(app.database.db, { ...request.body, language });
      // Registration is never held up by it: the link is sent after the answer.
      inBackground(app.deps, 'an email verification', () =>
        requestEmailVerification(app.deps, registered.user.id, language),
      );
      return reply.status(201).send(registered);
    },
  );

  app.post(
    '/auth/login',
    {
      config: { rateLimit: ACCOUNT_RATE_LIMITS.login },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with email and password',
        description: `Any failure is "Invalid credentials". ${LOGIN_LOCK_FAILURES} failures for one email from one address within ${LOGIN_LOCK_MINUTES} minutes lock further attempts (429), even with RATE_LIMIT=off.`,
        body: LoginBodySchema,
        response: { 200: AuthResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        return await signIn(app.database.db, {
          ...request.body,
          ip: request.ip,
          language: askedLanguage(request),
        });
      } catch (err) {
        retryAfterHeader(err, reply);
        throw err;
      }
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Sign out: the token stops working',
        ...signedIn,
        response: { 204: z.null().describe('Signed out'), 401: ErrorSchema },
      },
    },
    async (request, reply) => {
      await signOut(app.database.db, request.user!.sessionId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { rateLimit: ACCOUNT_RATE_LIMITS.forgotPassword },
      schema: {
        tags: ['accounts'],
        summary: 'Email a password reset link (202 whether or not an account has this email)',
        description: `A known account gets a single-use link valid ${RESET_LINK_MINUTES} minutes (at most ${RESET_EMAILS_PER_HOUR} an hour); the answer never tells whether the email is registered.`,
        body: ForgotPasswordBodySchema,
        response: { 202: OkSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      // Done after the answer: neither the answer nor its timing tells whether the account exists.
      inBackground(app.deps, 'a password reset request', () =>
        requestPasswordReset(app.deps, request.body.email, askedLanguage(request)),
      );
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { rateLimit: ACCOUNT_RATE_LIMITS.resetPassword },
      schemaErrorFormatter: weakPasswordFormatter,
      schema: {
        tags: ['accounts'],
        summary: "Set a new password with a reset link's token; every session of the account ends",
        description:
          'The token works once and for an hour: a used, expired or unknown one is a 400 `invalid_reset_link`.',
        body: ResetPasswordBodySchema,
        response: { 200: OkSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request) => {
      await resetPassword(app.deps, request.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/user/me',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user',
        ...signedIn,
        response: { 200: UserSchema, 401: ErrorSchema },
      },
    },
    async (request) => ownAccount(app.database.db, request.user!.id),
  );

  app.post(
    '/auth/verify-email',
    {
      config: { rateLimit: ACCOUNT_RATE_LIMITS.verifyEmail },
      schema: {
        tags: ['accounts'],
        summary: "Verify an account's email with the emailed link's token (no sign-in needed)",
        description: `The token works once and for ${VERIFY_LINK_HOURS} hours, and only while the account keeps that email and password: otherwise a 400 \`invalid_verification_link\`. Counter sales to the email kept as guest orders join the account (\`claimedOrders\`).`,
        body: VerifyEmailBodySchema,
        response: { 200: VerifyEmailResponseSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request) => verifyEmail(app.deps, request.body.token),
  );

  app.post(
    '/auth/verify-email/resend',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(10, '15 minutes') },
      schema: {
        tags: ['accounts'],
        summary: "Email a new verification link to the signed-in user's address",
        description: `202 always; nothing is sent for a verified email or past ${VERIFY_EMAILS_PER_HOUR} links an hour.`,
        ...signedIn,
        response: { 202: OkSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const language = askedLanguage(request);
      inBackground(app.deps, 'an email verification', () =>
        requestEmailVerification(app.deps, userId, language),
      );
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.put(
    '/user/profile',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(30, '15 minutes') },
      schema: {
        tags: ['accounts'],
        summary: "Change the signed-in user's name and email (a new email needs currentPassword)",
        ...signedIn,
        body: ProfileBodySchema,
        response: { 200: UserSchema, 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request) => {
      const { emailChanged, ...user } = await updateProfile(
        app.database.db,
        { userId: request.user!.id, ip: request.ip },
        request.body,
      );
      if (emailChanged) {
        const language = askedLanguage(request);
        inBackground(app.deps, 'an email verification', () =>
          requestEmailVerification(app.deps, user.id, language),
        );
      }
      return user;
    },
  );

  app.put(
    '/user/password',
    {
      onRequest: app.requireUser,
      config: { rateLimit: ACCOUNT_RATE_LIMITS.password },
      schemaErrorFormatter: weakPasswordFormatter,
      schema: {
        tags: ['accounts'],
        summary: 'Change the password; every other session of the user ends',
        ...signedIn,
        body: PasswordChangeBodySchema,
        response: { 200: OkSchema, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        await changePassword(app.database.db, {
          userId: request.user!.id,
          sessionId: request.user!.sessionId,
          currentPassword: request.body.currentPassword,
          newPassword: request.body.newPassword,
          ip: request.ip,
        });
      } catch (err) {
        retryAfterHeader(err, reply);
        throw err;
      }
      return { ok: true as const };
    },
  );
};

function retryAfterHeader(err: unknown, reply: { header(name: string, value: string): unknown }) {
  if (err instanceof AppError && typeof err.extra.retryAfterSeconds === 'number') {
    reply.header('retry-after', String(err.extra.retryAfterSeconds));
  }
}
