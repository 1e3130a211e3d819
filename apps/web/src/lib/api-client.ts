import { type ApiErrorBody, type ErrorKey, isErrorKey } from '@opsdeck/contract/errors';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { getAuthToken, getTenantId } from './session';

/**
 * A failed API call, carrying the error body of every failure (key, message, fields;
 * docs/architecture.md, "Errors").
 */
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

type QueryValue = string | number | boolean | null | undefined;
/** A query string's values; an array repeats its name (`fileNames=a&fileNames=b`). */
type Query = Record<string, QueryValue | readonly QueryValue[]>;

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
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) if (item !== undefined && item !== null) params.append(name, String(item));
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

/**
 * The contract's ApiErrorBody, checked by hand: its zod schema would bring zod into every page,
 * the login page too (docs/performance.md, the console's initial JavaScript).
 */
function isErrorBody(payload: unknown): payload is ApiErrorBody {
  if (typeof payload !== 'object' || payload === null) return false;
  const { key, message, fields } = payload as Record<string, unknown>;
  return (
    typeof key === 'string' &&
    typeof message === 'string' &&
    (fields === undefined ||
      (typeof fields === 'object' &&
        !Array.isArray(fields) &&
        fields !== null &&
        Object.values(fields).every((value) => typeof value === 'string')))
  );
}

async function readError(response: Response): Promise<ApiError> {
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    // Not JSON (a proxy page, an empty body): fall through to the general error.
  }
  if (isErrorBody(payload)) return new ApiError(response.status, payload.key, payload.message, payload.fields);
  return new ApiError(response.status, 'ERROR_GENERAL_INTERNAL', response.statusText || 'Request failed');
}

/** Sends one call with the console's headers; a failed answer throws its ApiError. */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', query, body, signal, tenantId, ignoreUnauthorized = false } = options;
  const headers = buildHeaders(body, tenantId);
  headers.set('Accept', accept);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw networkError();
  }
  return checked(response, ignoreUnauthorized);
}

const networkError = () => new ApiError(0, 'ERROR_GENERAL_INTERNAL', 'Network error');

/** A good answer as it is; a failed one throws its ApiError, and a 401 first ends the session. */
async function checked(response: Response, ignoreUnauthorized: boolean): Promise<Response> {
  if (response.ok) return response;
  const error = await readError(response);
  if (response.status === 401 && !ignoreUnauthorized) onUnauthorized();
  throw error;
}

async function readJson<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Calls the API under /api with the console's headers; resolves with the JSON answer. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return readJson<T>(await send(path, options, 'application/json'));
}

export interface UploadOptions extends Omit<RequestOptions, 'body'> {
  /** The multipart body. */
  body: FormData;
  /** Told the share of the body sent so far, from 0 to 1, as the upload goes. */
  onProgress?: (sent: number) => void;
}

/**
 * A multipart call whose upload can be watched, which fetch cannot report: the same headers,
 * tenant, error body and 401 handling as apiRequest, over XMLHttpRequest. Resolves with the JSON
 * answer.
 */
export async function apiUpload<T>(path: string, options: UploadOptions): Promise<T> {
  const { method = 'POST', query, body, signal, tenantId, ignoreUnauthorized = false, onProgress } = options;
  signal?.throwIfAborted();
  const headers = buildHeaders(body, tenantId);
  const response = await new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, buildUrl(path, query));
    for (const [name, value] of headers) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    });
    xhr.addEventListener('load', () => resolve(responseOf(xhr)));
    xhr.addEventListener('error', () => reject(networkError()));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was aborted.', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
  return readJson<T>(await checked(response, ignoreUnauthorized));
}

/** What an XMLHttpRequest received, as a fetch Response, so that one reader reads both. */
function responseOf(xhr: XMLHttpRequest): Response {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header the Headers class refuses is not one the console reads.
    }
  }
  const bodiless = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
  return new Response(bodiless ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers });
}

/** A file the API answered: its bytes, and the name its Content-Disposition gave (or the fallback). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** Calls the API for a file (an attachment) instead of JSON; failures throw as apiRequest's do. */
export async function apiFile(
  path: string,
  options: RequestOptions & { fallbackName: string },
): Promise<DownloadedFile> {
  const response = await send(path, options, '*/*');
  const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? options.fallbackName;
  return { blob: await response.blob(), fileName };
}

/** Fetches a file from the API and saves it under the name the server gave; resolves with that name. */
export async function apiDownload(path: string, options: RequestOptions & { fallbackName: string }): Promise<string> {
  const { blob, fileName } = await apiFile(path, options);
  saveBlob(blob, fileName);
  return fileName;
}

/** Hands a Blob to the browser as a download named `fileName` (a temporary object URL on a link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked on a later task: some browsers start reading the URL only after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*` (RFC 8187, UTF-8 or
 * ISO-8859-1, percent-encoded) wins over `filename` (a token or a quoted string). Only the last
 * path segment is kept, so a name can never point outside the download folder. Null when none.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let plain: string | null = null;
  let extended: string | null = null;
  const parameter = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const [, rawName = '', rawValue = ''] of header.matchAll(parameter)) {
    const name = rawName.toLowerCase();
    const value = rawValue.trim();
    if (name === 'filename*') extended ??= decodeExtendedValue(value);
    else if (name === 'filename' && plain === null)
      plain = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
  }
  const chosen = extended ?? plain;
  const base = chosen?.split(/[/\\]/).pop()?.trim();
  return base ? base : null;
}

/** RFC 8187 `charset'language'percent-encoded`; null when the charset is unknown or the text broken. */
function decodeExtendedValue(value: string): string | null {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return null;
  const [, charset = '', encoded = ''] = match;
  try {
    if (charset.toLowerCase() === 'utf-8') return decodeURIComponent(encoded);
    if (charset.toLowerCase() === 'iso-8859-1')
      return encoded.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  } catch {
    // A malformed escape: fall back to the plain `filename`.
  }
  return null;
}
