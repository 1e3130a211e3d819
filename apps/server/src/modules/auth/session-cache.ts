import type { Caller } from '../../platform/access';

type Entry = { caller: Caller | null; cachedUntil: number };

/**
 * Resolved sessions, kept a few seconds so that a busy console does not cost a database round
 * trip per request. Everything that ends a session or changes what it may do (logout, password
 * change, archiving, role edits) evicts here, on every instance through the domain events.
 *
 * `isLive` says whether those events reach this instance now (the event bus's subscription to the
 * other instances is up): while it does not, the cache neither serves nor stores, since it could
 * miss an eviction; when they reach it again the bus's resync signal calls `flush()`.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
    private readonly isLive: () => boolean = () => true,
  ) {}

  /**
   * Read before loading a session, passed back to `set`: a load that was under way when an
   * eviction or a flush came may have read what they removed, so it is not stored.
   */
  get epoch(): number {
    return this.generation;
  }

  get(tokenHash: string, now: number): Caller | null | undefined {
    if (!this.isLive()) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now || (entry.caller && entry.caller.expiresAt <= now)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.caller;
  }

  set(tokenHash: string, caller: Caller | null, now: number, epoch = this.generation) {
    if (!this.isLive() || epoch !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { caller, cachedUntil: now + this.ttlMs });
  }

  evict(tokenHash: string) {
    this.entries.delete(tokenHash);
    this.generation += 1;
  }

  evictUser(userId: number) {
    for (const [hash, entry] of this.entries) if (entry.caller?.userId === userId) this.entries.delete(hash);
    this.generation += 1;
  }

  evictSession(sessionId: number) {
    for (const [hash, entry] of this.entries) if (entry.caller?.sessionId === sessionId) this.entries.delete(hash);
    this.generation += 1;
  }

  /** An API token's caller (the tokens service keeps its callers in a cache of this kind). */
  evictToken(tokenId: number) {
    for (const [hash, entry] of this.entries) if (entry.caller?.token?.id === tokenId) this.entries.delete(hash);
    this.generation += 1;
  }

  clear() {
    this.entries.clear();
    this.generation += 1;
  }

  /** Drops everything: the events that keep it exact may have been missed (the bus's resync). */
  flush() {
    this.clear();
  }
}
