import {
  DEVICE_ID_HEADER,
  type ErrorBody,
  type HeldSearch,
  isRecord,
  XSRF_COOKIE,
  XSRF_HEADER,
} from '@footprint/domain';
import { getDeviceId, getToken } from './session.ts';

/**
 * The one HTTP client of the web app (spec §7): same-origin fetch with cookies, JSON in and out, the
 * device id on every call and the bearer token when one is stored. It only reports what happened: it
 * never toasts or redirects. What a 401 means for the app is injected with `setUnauthorizedHandler`.
 */

/** A failed call. `status` is 0 when no answer arrived (network down, server unreachable). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody, message?: string) {
    super(message ?? body.message ?? body.error ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/**
 * A paid search the server held for a supervisor's approval: its 202 `HeldSearch` (nothing charged, no
 * result). Thrown by `request`, so that no screen can take it for an answer; `lib/paid-answer.ts` says it.
 */
export class HeldSearchError extends ApiError {
  readonly held: HeldSearch;

  constructor(held: HeldSearch) {
    super(202, { message: held.message }, held.message);
    this.name = 'HeldSearchError';
    this.held = held;
  }
}

export const isHeldSearch = (value: unknown): value is HeldSearch =>
  isRecord(value) &&
  value.status === 'pending' &&
  typeof value.message === 'string' &&
  typeof value.poll === 'string' &&
  isRecord(value.approval) &&
  typeof value.approval.id === 'string';

type UnauthorizedHandler = (error: ApiError) => void;
let onUnauthorized: UnauthorizedHandler | null = null;

/** Installs (or with `null` removes) what happens when any call answers 401. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: Method;
  /** Sent as JSON; a FormData goes as multipart/form-data (an uploaded file). */
  body?: unknown;
  query?: QueryParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * `false` keeps a 401 from this call away from the unauthorized handler, for calls whose 401 the
   * caller settles itself (the user fetch on a public page, logout with an already dead token).
   */
  handleUnauthorized?: boolean;
}

/** Optional API origin for split deployments; by default the API shares the page's origin. */
const baseUrl: string = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/+$/, '') ?? '';

function buildUrl(path: string, query?: QueryParams): string {
  let url = `${baseUrl}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const search = params.toString();
    if (search) url += `${url.includes('?') ? '&' : '?'}${search}`;
  }
  return url;
}

function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const cookie = part.trim();
    if (cookie.startsWith(prefix)) return cookie.slice(prefix.length);
  }
  return null;
}

function xsrfToken(): string | null {
  const raw = readCookie(XSRF_COOKIE);
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function toErrorBody(value: unknown): ErrorBody {
  return isRecord(value) ? (value as ErrorBody) : {};
}

async function readErrorBody(response: Response): Promise<ErrorBody> {
  try {
    const text = await response.text();
    return text ? toErrorBody(JSON.parse(text)) : {};
  } catch {
    // An HTML error page from a proxy, or no body at all.
    return {};
  }
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The headers that say who calls: the device id, the bearer token when one is stored and, on a
 * change, the XSRF token. For calls `request` cannot make, such as reading an event stream.
 */
export function authHeaders(method: Method = 'GET'): Record<string, string> {
  const headers: Record<string, string> = { [DEVICE_ID_HEADER]: getDeviceId() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== 'GET') {
    const xsrf = xsrfToken();
    if (xsrf) headers[XSRF_HEADER] = xsrf;
  }
  return headers;
}

/** The address of an API path (VITE_API_URL before it in a split deployment). */
export const apiUrl = (path: string, query?: QueryParams): string => buildUrl(path, query);

/** JSON call: resolves with the parsed answer, rejects with `ApiError` on any non-2xx or no answer. */
export function request<T>(path: string, options?: RequestOptions & { responseType?: 'json' }): Promise<T>;
/** Binary call (PDF reports): resolves with the body as a Blob whose `type` is the answer's content type. */
export function request(path: string, options: RequestOptions & { responseType: 'blob' }): Promise<Blob>;
/**
 * Binary call whose answer headers matter too (the credit report carries the balance in `X-Credits`).
 * An answer may also be JSON (a call that returns either): `blob.type` says which.
 */
export function request(
  path: string,
  options: RequestOptions & { responseType: 'file' },
): Promise<FileAnswer>;
export async function request(
  path: string,
  options: RequestOptions & { responseType?: 'json' | 'blob' | 'file' } = {},
): Promise<unknown> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const form = typeof FormData !== 'undefined' && options.body instanceof FormData;
  const headers: Record<string, string> = {
    Accept:
      options.responseType && options.responseType !== 'json'
        ? 'application/pdf, application/json'
        : 'application/json',
    ...authHeaders(method),
  };
  // A FormData body gets its multipart Content-Type (with the boundary) from fetch itself.
  if (options.body !== undefined && !form) headers['Content-Type'] = 'application/json';
  Object.assign(headers, options.headers);

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      credentials: 'include',
      body:
        options.body === undefined
          ? undefined
          : form
            ? (options.body as FormData)
            : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    // A cancelled call is not a failure of the server; let the caller (or TanStack Query) see the abort.
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, {}, 'Network request failed');
  }

  if (!response.ok) {
    const error = new ApiError(response.status, await readErrorBody(response));
    if (response.status === 401 && options.handleUnauthorized !== false) onUnauthorized?.(error);
    throw error;
  }

  // A 202 of a search held for approval is not an answer (a queued bulk job's 202 is, and goes on).
  if (response.status === 202) {
    const held = await readJson(response.clone()).catch(() => undefined);
    if (isHeldSearch(held)) throw new HeldSearchError(held);
  }

  if (options.responseType === 'file') return { blob: await response.blob(), headers: response.headers };
  return options.responseType === 'blob' ? response.blob() : readJson(response);
}

/** What a `responseType: 'file'` call resolves with. */
export interface FileAnswer {
  blob: Blob;
  headers: Headers;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body: body ?? {} }),
};

/**
 * Asks the server for the readable `XSRF-TOKEN` cookie. The calls that need it (forgot and reset
 * password) run this first; `request` then copies the cookie into the `X-XSRF-TOKEN` header.
 */
export function getCsrfCookie(): Promise<void> {
  return request<void>('/sanctum/csrf-cookie', { method: 'GET' });
}

/** Saves a Blob under a file name through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns; release it a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
