import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { API_TOKEN_PREFIX } from '@opsdeck/contract/tokens';
import { expect } from 'vitest';
import { type App, buildApp } from '../src/app';
import { prepareData } from '../src/boot';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { openTestDatabase } from './database';

export const ADMIN = { email: 'admin@opsdeck.test', password: 'admin-test-password' };

export type CallOptions = {
  method?: string;
  token?: string;
  tenantId?: string;
  appKey?: string | null;
  json?: unknown;
  form?: Record<string, string>;
  /** A multipart/form-data body, as the console's uploads send it. */
  multipart?: FormData;
  headers?: Record<string, string>;
};

/** `body` is the parsed JSON (or the text); `bytes` the raw body, for downloads. */
export type CallResult<T = unknown> = { status: number; body: T; headers: Headers; bytes: Uint8Array };

export type TestApp = {
  app: App;
  database: Database;
  dataDir: string;
  baseUrl: string;
  call: <T = Record<string, unknown>>(path: string, options?: CallOptions) => Promise<CallResult<T>>;
  login: (email: string, password: string) => Promise<string>;
  close: () => Promise<void>;
};

/**
 * Serves the whole app on `database` (readied first) at a free local port, with a fresh data
 * directory and the test admin; logs are silent unless `env` sets LOG_LEVEL.
 */
export async function serveApp(database: Database, env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO: '0',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    ...env,
  });
  await prepareData(database, config);
  const app = await buildApp({ config, database, ...(env.LOG_LEVEL ? {} : { logger: false }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, dataDir, baseUrl };
}

/**
 * Boots the whole server on a fresh database and a free port, and calls it over real HTTP, the
 * way the console does. Only the provider admin exists; tests add their own rows with factories.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { database?: Database } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const { app, dataDir, baseUrl } = await serveApp(database, { PUBLIC_URL: 'http://console.opsdeck.test', ...env });

  async function call<T>(urlPath: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.appKey !== null) headers[HEADERS.appKey] = options.appKey ?? CONSOLE_APP_KEY;
    // An API token (odt_…) goes as `Authorization: Bearer`, a session token as X-Auth-Token.
    if (options.token?.startsWith(API_TOKEN_PREFIX)) headers[HEADERS.authorization] = `Bearer ${options.token}`;
    else if (options.token) headers[HEADERS.authToken] = options.token;
    if (options.tenantId) headers[HEADERS.tenantId] = options.tenantId;
    let body: string | FormData | undefined;
    if (options.multipart) {
      body = options.multipart;
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetch(baseUrl + urlPath, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers, bytes };
  }

  async function login(email: string, password: string) {
    const result = await call<{ token: string }>('/api/login', { json: { username: email, password } });
    if (result.status !== 200)
      throw new Error(`login of ${email} failed: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body.token;
  }

  return {
    app,
    database,
    dataDir,
    baseUrl,
    call,
    login,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The create, update and delete calls of a REST resource (`POST path`, `PUT path/{id}`,
 * `DELETE path/{id}`), made as `defaultToken()` unless a test names another caller. Getters,
 * because the app and the tokens are made in a `beforeAll`.
 */
export function resourceCalls<T>(app: () => TestApp, path: string, defaultToken: () => string) {
  const create = (json: unknown, token = defaultToken(), tenantId?: string) =>
    app().call<T>(path, { json, token, ...(tenantId ? { tenantId } : {}) });
  return {
    create,
    /** Creates, expects 201 and answers the created row. */
    created: async (json: unknown, token = defaultToken()) => {
      const result = await create(json, token);
      expect(result.status).toBe(201);
      return result.body;
    },
    update: (id: number | string, json: unknown, token = defaultToken()) =>
      app().call<T>(`${path}/${id}`, { method: 'PUT', json, token }),
    remove: (id: number | string, token = defaultToken()) =>
      app().call<T>(`${path}/${id}`, { method: 'DELETE', token }),
  };
}
