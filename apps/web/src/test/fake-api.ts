import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { type Mock, vi } from 'vitest';
import { FetchBackedXhr } from './fake-xhr';

export interface RecordedCall {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

/** An answer: `body` sent as JSON, or `text` sent as it is (a file), with `headers` added. */
type Answer = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };
type Handler = (call: RecordedCall) => Answer | Promise<Answer>;

/**
 * Replaces fetch (the console's boundary) with handlers keyed by 'METHOD /path', and
 * XMLHttpRequest (the uploads that report progress) with one that sends through it. Calls are
 * recorded, so tests can assert what the console sent.
 */
export function fakeApi(handlers: Record<string, Handler>): { calls: RecordedCall[]; fetch: Mock } {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call = { method, url: `${url.pathname}${url.search}`, headers: new Headers(init.headers), body };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    if (!handler) {
      return new Response(JSON.stringify({ key: 'ERROR_GENERAL_NOT_FOUND', message: 'not found' }), { status: 404 });
    }
    const { status = 200, body: answer, text, headers = {} } = await handler(call);
    if (text !== undefined) return new Response(text, { status, headers });
    return new Response(answer === undefined ? null : JSON.stringify(answer), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('XMLHttpRequest', FetchBackedXhr);
  return { calls, fetch: fetchMock };
}

export function errorBody(key: string, message = key, fields?: Record<string, string>) {
  return fields ? { key, message, fields } : { key, message };
}

/** A profile with overrides (bulletproof-react style factory). */
export function buildProfile(overrides: Partial<CurrentUserProfile> = {}): CurrentUserProfile {
  return {
    id: 7,
    firstName: 'Ada',
    lastName: 'Lovelace',
    completeName: 'Ada Lovelace',
    fullName: 'Ada Lovelace',
    emailAddress: 'ada@acme.test',
    tenantId: 'tenant-acme',
    auths: ['ACCESS_USER_TAB'],
    company: { id: 5, name: 'Acme Robotics', tenantId: 'tenant-acme' },
    department: { id: 2, name: 'Operations' },
    ...overrides,
  };
}
