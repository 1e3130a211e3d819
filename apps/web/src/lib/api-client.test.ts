import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../test/fake-api';
import { ApiError, apiRequest, setUnauthorizedHandler } from './api-client';
import { setAuthToken, setTenantId } from './session';

afterEach(() => setUnauthorizedHandler(() => {}));

describe('apiRequest', () => {
  it('sends the app key always, and the token and tenant when there are some', async () => {
    const { calls } = fakeApi({ 'GET /api/company': () => ({ body: [] }) });
    await apiRequest('/company');
    setAuthToken('tok-9');
    setTenantId('tenant-b');
    await apiRequest('/company', { query: { q: 'a&b', empty: undefined } });

    expect(calls[0]?.headers.get('x-app-key')).toBe('opsdeck-console');
    expect(calls[0]?.headers.has('x-auth-token')).toBe(false);
    expect(calls[0]?.headers.has('x-tenant-id')).toBe(false);
    expect(calls[1]?.headers.get('x-auth-token')).toBe('tok-9');
    expect(calls[1]?.headers.get('x-tenant-id')).toBe('tenant-b');
    expect(calls[1]?.url).toBe('/api/company?q=a%26b');
    expect(window.localStorage.getItem('opsdeck.tenantId')).toBe('tenant-b');
  });

  it('throws the error body as an ApiError', async () => {
    fakeApi({
      'POST /api/company': () => ({
        status: 409,
        body: errorBody('ERROR_COMPANY_NAME_DUPLICATE', 'dup', { name: 'ERROR_COMPANY_NAME_DUPLICATE' }),
      }),
    });
    const error = await apiRequest('/company', { method: 'POST', body: { name: 'Acme' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      key: 'ERROR_COMPANY_NAME_DUPLICATE',
      fields: { name: 'ERROR_COMPANY_NAME_DUPLICATE' },
    });
  });

  it('reads an unknown or missing key as the general error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = (await apiRequest('/company').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.errorKey).toBe('ERROR_GENERAL_INTERNAL');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    expect(await apiRequest('/company').catch((e: unknown) => (e as ApiError).status)).toBe(0);
  });

  it('reports a 401 as a lost session, except where the caller expects one (login)', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fakeApi({
      'POST /api/login': () => ({ status: 401, body: errorBody('ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS') }),
      'GET /api/test': () => ({ status: 401, body: errorBody('ERROR_UNAUTHORIZED') }),
    });
    await apiRequest('/login', { method: 'POST', body: {}, ignoreUnauthorized: true }).catch(() => {});
    expect(onUnauthorized).not.toHaveBeenCalled();
    await apiRequest('/test').catch(() => {});
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });
});
