import { apiDownload, type RequestOptions } from './api-client';

/**
 * Downloads what a list shows as CSV: the list's own call with its filter and `format=csv`, sent
 * through the api-client (the session's token and tenant headers, which a plain link could not
 * carry), saved under the Content-Disposition name or `fallbackName`. The server answers every
 * row the filter matches, so paging parameters are left out. Any table can offer it: pass the
 * query its page call sends (and for a list read by POST, its method and body). Resolves with the file name; fails with the ApiError of the call.
 */
export function downloadCsv(
  path: string,
  query: NonNullable<RequestOptions['query']>,
  fallbackName: string,
  options: Pick<RequestOptions, 'tenantId' | 'signal' | 'method' | 'body'> = {},
): Promise<string> {
  const { page: _page, size: _size, ...filter } = query;
  return apiDownload(path, { ...options, query: { ...filter, format: 'csv' }, fallbackName });
}
