import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { ErrorKey } from '@opsdeck/contract/errors';

/**
 * Requests the server makes to addresses its users give it (webhook endpoints; docs/webhooks.md,
 * "Safety"). A user must not be able to make the server reach what only the server can reach:
 *
 * - only `https://` (and `http://` to a loopback address when `allowLoopback`, for tests and the
 *   demo), no user name or password in the URL;
 * - the host name is resolved on every request and every address it gives is checked: private,
 *   shared, loopback, link-local (cloud metadata is 169.254.169.254), multicast, reserved and
 *   documentation ranges are refused, IPv4 mapped into IPv6 as well;
 * - the connection goes to the address that was checked (no second lookup an attacker's DNS could
 *   answer differently);
 * - redirects are not followed; the answer is read up to `maxBytes`; the whole request times out.
 */

const FORBIDDEN_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;

const FORBIDDEN_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

const forbidden = new BlockList();
for (const [network, prefix] of FORBIDDEN_V4) forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of FORBIDDEN_V6) forbidden.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`), as IPv4; others unchanged. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export type OutboundOptions = { allowLoopback: boolean };

export class OutboundRefused extends Error {
  constructor(
    readonly key: ErrorKey,
    message: string,
  ) {
    super(message);
  }
}

const isLoopback = (address: string) => {
  const { address: plain, family } = unmapped(address);
  return loopback.check(plain, family);
};

/** Whether the server may connect to `address` (an IP literal). */
export function addressAllowed(address: string, options: OutboundOptions): boolean {
  if (options.allowLoopback && isLoopback(address)) return true;
  const { address: plain, family } = unmapped(address);
  if (family === 'ipv6' && /^::ffff:/i.test(address)) return false;
  return !forbidden.check(plain, family);
}

/** A URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What is wrong with `text` as an endpoint URL before any lookup: its scheme, credentials, or a
 * literal address in a refused range. Null when it may be tried.
 */
export function urlProblem(text: string, options: OutboundOptions): ErrorKey | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'ERROR_WEBHOOK_URL_INVALID';
  }
  if (url.username || url.password) return 'ERROR_WEBHOOK_URL_INVALID';
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  if (url.protocol === 'http:') {
    // Plain HTTP only to this machine, and only where the installation allows it.
    const local = literal ? isLoopback(host) : host === 'localhost';
    if (!(options.allowLoopback && local)) return 'ERROR_WEBHOOK_URL_INVALID';
  } else if (url.protocol !== 'https:') {
    return 'ERROR_WEBHOOK_URL_INVALID';
  }
  if (literal && !addressAllowed(host, options)) return 'ERROR_WEBHOOK_URL_FORBIDDEN';
  if (!literal && (host === 'localhost' || host.endsWith('.localhost')) && !options.allowLoopback) {
    return 'ERROR_WEBHOOK_URL_FORBIDDEN';
  }
  return null;
}

/** Resolves `url`'s host and answers the first address, refusing the URL if any address is refused. */
export async function resolveAllowed(url: URL, options: OutboundOptions): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  const found = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : await lookup(host, { all: true, verbatim: true }).catch((error: NodeJS.ErrnoException) => {
        throw new OutboundRefused(
          'ERROR_WEBHOOK_URL_INVALID',
          `cannot resolve ${host}: ${error.code ?? error.message}`,
        );
      });
  if (found.length === 0) throw new OutboundRefused('ERROR_WEBHOOK_URL_INVALID', `${host} has no address`);
  for (const entry of found) {
    if (!addressAllowed(entry.address, options)) {
      throw new OutboundRefused(
        'ERROR_WEBHOOK_URL_FORBIDDEN',
        `${host} resolves to ${entry.address}, a refused address`,
      );
    }
  }
  return found[0] as { address: string; family: 4 | 6 };
}

export type OutboundAnswer = {
  statusCode: number;
  /** The start of the answer, up to `maxBytes`. */
  body: Buffer;
  /** Set when it answered a redirect (not followed). */
  location: string | undefined;
};

/**
 * POSTs `body` to `text` (checked as above), to the checked address, within `timeoutMs` for the
 * whole exchange. Rejects with OutboundRefused for a refused URL, or the network's error.
 */
export async function postChecked(
  text: string,
  request: { headers: Record<string, string>; body: string; timeoutMs: number; maxBytes: number },
  options: OutboundOptions,
): Promise<OutboundAnswer> {
  const problem = urlProblem(text, options);
  if (problem) throw new OutboundRefused(problem, 'the URL is refused');
  const url = new URL(text);
  const { address, family } = await resolveAllowed(url, options);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        // The address checked above, whatever the name would resolve to now (TLS still checks the name).
        lookup: (_host, lookupOptions, callback) =>
          lookupOptions.all
            ? (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
                { address, family },
              ])
            : callback(null, address, family),
        agent: false,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const finish = () => {
          clearTimeout(timer);
          resolve({
            statusCode: answer.statusCode ?? 0,
            body: Buffer.concat(chunks, Math.min(length, request.maxBytes)),
            location: answer.headers.location,
          });
        };
        answer.on('data', (chunk: Buffer) => {
          if (length < request.maxBytes) chunks.push(chunk);
          length += chunk.length;
          // Enough read: the rest is not our business.
          if (length >= request.maxBytes) {
            answer.destroy();
            finish();
          }
        });
        answer.on('end', finish);
        answer.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => outgoing.destroy(new Error(`no answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(request.body);
  });
}
