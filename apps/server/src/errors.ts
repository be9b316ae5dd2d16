import type { ErrorCode } from '@cinema/contract';
import type { Language } from './i18n.ts';

/** An error a client caused or may act on: sent as `{ error, code, ...extra }` with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** The message in another language, when it is composed of parts the catalogue has (else it is looked up). */
    readonly localized?: (language: Language) => string,
  ) {
    // A 4xx answers the client and is no fault of the server: nobody reads its stack, and capturing one is most of
    // the cost of creating an error (an on-sale rush answers hundreds of 409s a second).
    const stackTraceLimit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new AppError(400, 'bad_request', message, extra);
export const unauthorized = (message = 'Not signed in') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Not allowed') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
/** A 409 whose message has words of the catalogue in its values (seat names): `say` writes it in each language. */
export const conflictSaying = (
  say: (language: Language) => string,
  code: ErrorCode,
  extra?: Record<string, unknown>,
) => new AppError(409, code, say('en'), extra, say);
export const conflict = (message: string, code: ErrorCode = 'conflict', extra?: Record<string, unknown>) =>
  new AppError(409, code, message, extra);
