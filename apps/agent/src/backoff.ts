/**
 * Refusals of CONNECT that waiting will not heal (a wrong, invalidated or expired key, another
 * machine, a wrong secret or app key): the agent still retries, in case an administrator fixes
 * it, but only every few minutes, so that a fleet of misconfigured agents does not hammer the server.
 */
export const PERMANENT_REFUSALS: ReadonlySet<string> = new Set([
  'ERROR_LICENSE_KEY_INVALID',
  'ERROR_LICENSE_KEY_INVALIDATED',
  'ERROR_LICENSE_INVALIDATED',
  'ERROR_LICENSE_EXPIRED_KEY',
  'ERROR_AGENT_MAC_ADDRESS_INVALID',
  'ERROR_AGENT_SECRET_INVALID',
  'ERROR_APP_KEY_INVALID',
  // Another instance on this machine took the key's session: coming straight back would only
  // take it back, and the two would replace each other every second.
  'ERROR_AGENT_REPLACED',
]);

export const BACKOFF = { firstMs: 1_000, maxMs: 30_000, permanentMs: 5 * 60_000 } as const;

/** Half of `base` fixed, half random: a fleet cut off together does not come back in one burst. */
function jittered(base: number, random: () => number): number {
  return Math.round(base / 2 + (random() * base) / 2);
}

/**
 * The wait before try `retries + 1` of something refused for now: `firstMs` doubling up to
 * `maxMs` (1 s to 30 s by default), with jitter. Connections, execution reports and activity
 * frames all back off this way.
 */
export function retryDelay(
  retries: number,
  random: () => number = Math.random,
  range: { firstMs: number; maxMs: number } = BACKOFF,
): number {
  return jittered(Math.min(range.maxMs, range.firstMs * 2 ** Math.max(0, retries)), random);
}

/**
 * How long to wait before connection attempt `attempt + 1` (attempt counts the failures since
 * the last connection that held): after a permanent refusal about five minutes; otherwise
 * exponential from 1 s to 30 s. Both with jitter (half the delay fixed, half random), so that a
 * fleet cut off together does not come back in one burst.
 */
export function reconnectDelay(attempt: number, refusal: string | null, random: () => number = Math.random): number {
  return refusal && PERMANENT_REFUSALS.has(refusal)
    ? jittered(BACKOFF.permanentMs, random)
    : retryDelay(attempt, random);
}
