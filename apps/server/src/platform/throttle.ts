import { AppError } from './errors';

type Window = { count: number; resetAt: number };

/**
 * Fixed-window failure counters kept in memory. Sign-in is throttled per account and per address
 * (docs/architecture.md, "Security"); a success clears the account's count. Entries expire with
 * their window, and the map is swept so a flood of distinct keys cannot grow it without bound.
 */
export class Throttle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 when the key has used up its window. */
  check(key: string): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now() && window.count >= this.limit) {
      throw new AppError(429, 'ERROR_TOO_MANY_REQUESTS');
    }
  }

  hit(key: string): void {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 50_000) this.sweep(now);
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      window.count += 1;
    }
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
