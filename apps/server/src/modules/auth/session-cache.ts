import type { Caller } from '../../platform/access';

type Entry = { caller: Caller | null; cachedUntil: number };

/**
 * Resolved sessions, kept a few seconds so that a busy console does not cost a database round
 * trip per request. Everything that ends a session or changes what it may do (logout, password
 * change, archiving, role edits) evicts here, so the delay only applies across server instances.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(tokenHash: string, now: number): Caller | null | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now || (entry.caller && entry.caller.expiresAt <= now)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.caller;
  }

  set(tokenHash: string, caller: Caller | null, now: number) {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { caller, cachedUntil: now + this.ttlMs });
  }

  evict(tokenHash: string) {
    this.entries.delete(tokenHash);
  }

  evictUser(userId: number) {
    for (const [hash, entry] of this.entries) if (entry.caller?.userId === userId) this.entries.delete(hash);
  }

  clear() {
    this.entries.clear();
  }
}
