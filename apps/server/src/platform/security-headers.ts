import type { FastifyReply, FastifyRequest } from 'fastify';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets style attributes at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
  "font-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Every response: no sniffing, no framing, and reset links' keys never leave as a referrer. */
const COMMON = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
};

/** API answers are data, never to be cached by a shared cache or rendered as a page. */
const API = {
  ...COMMON,
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};
const PAGES = { ...COMMON, 'content-security-policy': CONTENT_SECURITY_POLICY };

/**
 * The headers helmet would set, computed once: helmet rebuilds its policy string on every
 * request, which cost a fifth of the throughput of a cached session check (docs/performance.md).
 * A step of the one onRequest hook (platform/on-request.ts), so that even refusals carry them.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply) {
  reply.headers(request.url.startsWith('/api/') && !request.url.startsWith('/api/docs') ? API : PAGES);
}
