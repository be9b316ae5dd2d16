import type { ErrorCode } from '@cinema/contract';

/** An error a client caused or may act on: sent as `{ error, code, ...extra }` with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new AppError(400, 'bad_request', message, extra);
export const unauthorized = (message = 'Not signed in') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Not allowed') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, code: ErrorCode = 'conflict', extra?: Record<string, unknown>) =>
  new AppError(409, code, message, extra);
