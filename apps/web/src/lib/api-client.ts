import { readApiError } from '@cinema/contract/constants';
import { currentLanguage, i18n } from './i18n';
import { getToken } from './session';

/** An API failure carrying the server's `error` text and status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown> | unknown[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: Json | FormData;
  signal?: AbortSignal;
}

/** The one HTTP client: JSON in and out, bearer token attached, one error path. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, options)).data;
}

/** `api`, with the answer's headers too (`X-Total-Count` of a paged list). */
export async function apiWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  // The server answers its messages in the viewer's language (and remembers it for their emails).
  const headers: Record<string, string> = { 'accept-language': currentLanguage() };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(i18n.t('common:errors.network'), 0);
  }
  if (res.status === 204) return { data: undefined as T, headers: res.headers };
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const envelope = readApiError(data);
    throw new ApiError(
      envelope?.error ?? i18n.t('common:errors.requestFailed', { status: res.status }),
      res.status,
      envelope?.code,
      data,
    );
  }
  return { data: data as T, headers: res.headers };
}

/**
 * A file the API makes (a CSV report, a PDF), saved by the browser under the server's file name (else `fallbackName`).
 * Fetched, not linked: the request carries the session's bearer token, which a plain link cannot.
 */
export async function downloadFile(path: string, fallbackName: string, accept?: string): Promise<void> {
  const headers: Record<string, string> = { 'accept-language': currentLanguage() };
  if (accept) headers.accept = accept;
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { headers });
  } catch {
    throw new ApiError(i18n.t('common:errors.network'), 0);
  }
  if (!res.ok) throw new ApiError(i18n.t('common:errors.requestFailed', { status: res.status }), res.status);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The server's error text, else the screen's default message. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status !== 0 && err.message ? err.message : fallback;
}
