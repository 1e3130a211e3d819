import { ApiErrorBody, type ErrorKey, isErrorKey } from '@opsdeck/contract/errors';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { getAuthToken, getTenantId } from './session';

/** A failed API call, carrying the error body of ARCHITECTURE.md (key, message, fields). */
export class ApiError extends Error {
  readonly status: number;
  readonly key: string;
  readonly fields: Readonly<Record<string, string>>;

  constructor(status: number, key: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.key = key;
    this.fields = fields;
  }

  /** The catalogue key to show: the server's when it is one we know, otherwise the general one. */
  get errorKey(): ErrorKey {
    return isErrorKey(this.key) ? this.key : 'ERROR_GENERAL_INTERNAL';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** Sent as JSON; a FormData body is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * The company tenant this call acts on, instead of the stored one: an admin's company selector
   * in a form (spec section 4) loads and writes that company's rows. Null sends no tenant header.
   */
  tenantId?: string | null;
  /**
   * Login answers 401 for wrong credentials; that must not count as a lost session.
   * Every other 401 means the token is no longer good.
   */
  ignoreUnauthorized?: boolean;
}

let onUnauthorized: () => void = () => {};

/** The session layer registers what a 401 does (clear the token and the profile). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

function buildUrl(path: string, query?: Query): string {
  const url = `/api${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function buildHeaders(body: unknown, tenantOverride: string | null | undefined): Headers {
  const headers = new Headers({ [HEADERS.appKey]: CONSOLE_APP_KEY, Accept: 'application/json' });
  const token = getAuthToken();
  if (token) headers.set(HEADERS.authToken, token);
  const tenantId = tenantOverride === undefined ? getTenantId() : tenantOverride;
  if (tenantId) headers.set(HEADERS.tenantId, tenantId);
  if (body !== undefined && !(body instanceof FormData)) headers.set('Content-Type', 'application/json');
  return headers;
}

async function readError(response: Response): Promise<ApiError> {
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    // Not JSON (a proxy page, an empty body): fall through to the general error.
  }
  const parsed = ApiErrorBody.safeParse(payload);
  if (parsed.success) {
    return new ApiError(response.status, parsed.data.key, parsed.data.message, parsed.data.fields);
  }
  return new ApiError(response.status, 'ERROR_GENERAL_INTERNAL', response.statusText || 'Request failed');
}

/** Calls the API under /api with the console's headers; resolves with the JSON answer. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, signal, tenantId, ignoreUnauthorized = false } = options;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers: buildHeaders(body, tenantId),
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'ERROR_GENERAL_INTERNAL', 'Network error');
  }
  if (!response.ok) {
    const error = await readError(response);
    if (response.status === 401 && !ignoreUnauthorized) onUnauthorized();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
