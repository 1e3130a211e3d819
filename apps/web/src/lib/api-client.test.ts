import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../test/fake-api';
import {
  ApiError,
  apiDownload,
  apiFile,
  apiRequest,
  apiUpload,
  fileNameFromDisposition,
  setUnauthorizedHandler,
} from './api-client';
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

  it('reads a JSON answer that is not the error body as the general error', async () => {
    const answers = [
      { key: 'ERROR_COMPANY_NAME_DUPLICATE' },
      { key: 'ERROR_COMPANY_NAME_DUPLICATE', message: 'dup', fields: { name: 7 } },
      { key: 'ERROR_COMPANY_NAME_DUPLICATE', message: 'dup', fields: ['ERROR_COMPANY_NAME_DUPLICATE'] },
      ['ERROR_COMPANY_NAME_DUPLICATE'],
    ];
    for (const answer of answers) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => Response.json(answer, { status: 409 })),
      );
      const error = (await apiRequest('/company').catch((e: unknown) => e)) as ApiError;
      expect(error.key).toBe('ERROR_GENERAL_INTERNAL');
      expect(error.fields).toEqual({});
    }
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

describe('apiUpload', () => {
  /** An XMLHttpRequest whose upload and answer the test plays. */
  class ScriptedXhr extends EventTarget {
    static last: ScriptedXhr | undefined;
    readonly upload = new EventTarget();
    readonly headers = new Headers();
    opened: [string, string] | undefined;
    sent: unknown;
    status = 0;
    statusText = '';
    responseText = '';
    constructor() {
      super();
      ScriptedXhr.last = this;
    }
    open(method: string, url: string) {
      this.opened = [method, url];
    }
    setRequestHeader(name: string, value: string) {
      this.headers.set(name, value);
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    send(body: unknown) {
      this.sent = body;
    }
    abort() {
      this.dispatchEvent(new Event('abort'));
    }
    progress(loaded: number, total: number, lengthComputable = true) {
      this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable }));
    }
    answer(status: number, body: unknown) {
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.dispatchEvent(new Event('load'));
    }
  }

  it("reports the upload's progress and sends the console's headers, the tenant asked for and the form", async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    setAuthToken('tok-9');
    setTenantId('tenant-stored');
    const body = new FormData();
    body.append('name', 'Invoice intake');
    const progress: number[] = [];
    const done = apiUpload<{ id: number }>('/workflow/create', {
      body,
      query: { draft: true },
      tenantId: 'tenant-b',
      onProgress: (sent) => progress.push(sent),
    });
    const xhr = ScriptedXhr.last as ScriptedXhr;
    expect(xhr.opened).toEqual(['POST', '/api/workflow/create?draft=true']);
    expect(xhr.sent).toBe(body);
    expect(xhr.headers.get('x-app-key')).toBe('opsdeck-console');
    expect(xhr.headers.get('x-auth-token')).toBe('tok-9');
    expect(xhr.headers.get('x-tenant-id')).toBe('tenant-b');
    // The browser sets a multipart body's type with its boundary.
    expect(xhr.headers.has('content-type')).toBe(false);
    xhr.progress(10, 0, false);
    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.answer(201, { id: 4 });
    expect(await done).toEqual({ id: 4 });
    expect(progress).toEqual([0.25, 1]);
  });

  it('throws the error body as apiRequest does, ends the session on a 401, and reads a lost connection', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const refused = apiUpload('/workflow/create', { body: new FormData(), tenantId: null });
    expect(ScriptedXhr.last?.headers.has('x-tenant-id')).toBe(false);
    ScriptedXhr.last?.answer(
      413,
      errorBody('ERROR_WORKFLOW_FILE_TOO_LARGE', 'too large', { file: 'ERROR_WORKFLOW_FILE_TOO_LARGE' }),
    );
    expect(await refused.catch((e: unknown) => e)).toMatchObject({
      status: 413,
      key: 'ERROR_WORKFLOW_FILE_TOO_LARGE',
      fields: { file: 'ERROR_WORKFLOW_FILE_TOO_LARGE' },
    });
    expect(onUnauthorized).not.toHaveBeenCalled();

    const expired = apiUpload('/workflow/create', { body: new FormData() });
    ScriptedXhr.last?.answer(401, errorBody('ERROR_UNAUTHORIZED'));
    expect(await expired.catch((e: unknown) => e)).toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledOnce();

    const offline = apiUpload('/workflow/create', { body: new FormData() });
    ScriptedXhr.last?.dispatchEvent(new Event('error'));
    expect(await offline.catch((e: unknown) => (e as ApiError).status)).toBe(0);

    const controller = new AbortController();
    const cancelled = apiUpload('/workflow/create', { body: new FormData(), signal: controller.signal });
    controller.abort();
    expect(await cancelled.catch((e: unknown) => (e as DOMException).name)).toBe('AbortError');
  });

  it("answers through the fake API's fetch in the console's tests, with the same recorded call", async () => {
    const { calls } = fakeApi({ 'PUT /api/workflow/3': () => ({ body: { id: 3 } }) });
    const body = new FormData();
    const progress: number[] = [];
    expect(await apiUpload('/workflow/3', { method: 'PUT', body, onProgress: (sent) => progress.push(sent) })).toEqual({
      id: 3,
    });
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/workflow/3', body });
    expect(progress).toEqual([0.5, 1]);
  });
});

describe('buildUrl through apiRequest', () => {
  it('repeats the name of an array value, and leaves out empty values', async () => {
    const { calls } = fakeApi({ 'GET /api/directory/download/multiple': () => ({ body: {} }) });
    await apiRequest('/directory/download/multiple', {
      query: { directory: 'Workflows/Finance', fileNames: ['a b.rax', 'Q&A', null], none: undefined },
    });
    expect(calls[0]?.url).toBe(
      '/api/directory/download/multiple?directory=Workflows%2FFinance&fileNames=a+b.rax&fileNames=Q%26A',
    );
  });
});

describe('fileNameFromDisposition', () => {
  it('reads a quoted, a plain and an RFC 8187 name, the extended one first', () => {
    expect(fileNameFromDisposition('attachment; filename="ODK-7F3Q.lic"')).toBe('ODK-7F3Q.lic');
    expect(fileNameFromDisposition('attachment; filename=amara.lic')).toBe('amara.lic');
    expect(fileNameFromDisposition('attachment; filename="say \\"hi\\"; now.lic"')).toBe('say "hi"; now.lic');
    expect(
      fileNameFromDisposition(`attachment; filename="Amara_Okoye.lic"; filename*=UTF-8''Amara%20%C3%96koye.lic`),
    ).toBe('Amara Ökoye.lic');
    expect(fileNameFromDisposition("attachment; filename*=iso-8859-1'en'caf%E9.lic")).toBe('café.lic');
  });

  it('keeps only the last path segment, and answers null when there is no usable name', () => {
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFromDisposition('attachment; filename="a\\\\b.lic"')).toBe('b.lic');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E0%A4%A; filename=plain.lic")).toBe('plain.lic');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

describe('apiDownload', () => {
  it("saves the answer under the header's name, with the console's headers", async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response('-----BEGIN OPSDECK LICENSE-----\n', {
          headers: { 'Content-Disposition': `attachment; filename*=UTF-8''%C3%89mile.lic` },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    // restoreMocks (vitest.config.ts) puts these back after the test.
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    const name = await apiDownload('/account/export-license-file/3', { fallbackName: 'key-3.lic', tenantId: 't-9' });
    expect(name).toBe('Émile.lic');
    expect(saved).toEqual([{ name: 'Émile.lic', href: 'blob:console/1' }]);
    const blob = createObjectURL.mock.calls[0]?.[0] as Blob;
    expect(await blob.text()).toBe('-----BEGIN OPSDECK LICENSE-----\n');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/account/export-license-file/3');
    expect(new Headers(init.headers).get('x-tenant-id')).toBe('t-9');
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('uses the fallback name without a header, and throws the error body like apiRequest', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('x')),
    );
    const file = await apiFile('/file', { fallbackName: 'key-3.lic' });
    expect(file.fileName).toBe('key-3.lic');
    fakeApi({
      'GET /api/account/export-license-file/4': () => ({
        status: 404,
        body: errorBody('ERROR_ACCOUNT_NO_LICENSE_FILE'),
      }),
    });
    const error = await apiFile('/account/export-license-file/4', { fallbackName: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, key: 'ERROR_ACCOUNT_NO_LICENSE_FILE' });
  });
});
