import type { DomainEvent, EventBus, Resource } from './events';
import type { TenantScope } from './tenancy';

/**
 * What a server-paged list remembers between requests, kept exact by the domain events
 * (docs/performance.md, "Lists at 500 requests a second"): the total a page shows, the anchors
 * its deep pages seek from, and the ids of the pages asked for. A value is stored per (tenant
 * scope, normalised filter) of one list; a write the list depends on evicts it, so the next
 * request reads it again from the rows.
 *
 * - **Eviction**: an event of a resource in `dependsOn` evicts the values of its tenant and those
 *   of the every-tenant scope (an administrator who picked no company reads every tenant's rows).
 *   An event of the provider's own rows (tenant null) evicts only the every-tenant values.
 * - **Across instances**: the events arrive through the bus (Redis when there are several
 *   instances). While the bus says they may not (`isLive()` false) nothing is served or stored,
 *   and when it resyncs everything is dropped: it may have missed evictions.
 * - **Races**: a load that was under way when an eviction came may have read what the write
 *   changed; it answers its own request but is not stored, and requests after the eviction do not
 *   join it. Concurrent misses of one key otherwise share a single load (500 requests a second
 *   arriving on an empty cache run one count, not 500).
 * - **Bounded**: at most `maxEntries` values, the least recently used dropped first.
 *
 * Reads stay as fresh as the events are: on the instance that made a change, the eviction is done
 * before the change's request answers (the local bus calls subscribers synchronously); another
 * instance evicts when the event reaches it through Redis.
 */
export class ListCache<V> {
  private readonly entries = new Map<string, { tenant: string | null; value: V }>();
  private readonly loading = new Map<string, { tenant: string | null; promise: Promise<V> }>();
  /** Raised by every eviction: a load that began before it is not stored. */
  private generation = 0;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly isLive: () => boolean;

  constructor(
    events: EventBus,
    private readonly options: {
      /** The resources whose changes can change the values (the list's rows and what it searches). */
      dependsOn: readonly Resource[];
      /** 1,000 unless said. */
      maxEntries?: number;
    },
  ) {
    this.isLive = events.isLive ?? (() => true);
    this.unsubscribe.push(events.subscribe((event) => this.evictFor(event), { resources: options.dependsOn }));
    if (events.onResync) this.unsubscribe.push(events.onResync(() => this.clear()));
  }

  /**
   * The value of `filter` in `scope`, from the cache or from `load` (stored for the next request
   * if no eviction came while it ran). `filter` is anything JSON can write; the caller normalises
   * it (trimmed, lower-cased search text, resolved ids in order) so that equal filters are equal.
   */
  async get(scope: TenantScope, filter: unknown, load: () => Promise<V>): Promise<V> {
    if (!this.isLive()) return load();
    const tenant = scope.kind === 'one' ? scope.tenantId : null;
    const key = `${tenant ?? '*'}\u0000${JSON.stringify(filter)}`;
    const cached = this.entries.get(key);
    if (cached) {
      // Least recently used first: a hit moves the entry to the end of the map's order.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.value;
    }
    const flight = this.loading.get(key);
    if (flight) return flight.promise;
    const started = this.generation;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        if (started === this.generation && this.isLive()) this.store(key, tenant, value);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, { tenant, promise });
    return promise;
  }

  /** How many values are kept (for tests). */
  get size() {
    return this.entries.size;
  }

  /** Drops everything (the bus's resync). */
  clear() {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  /** Stops following the events. */
  close() {
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.clear();
  }

  private store(key: string, tenant: string | null, value: V) {
    const max = this.options.maxEntries ?? 1000;
    while (this.entries.size >= max) {
      // Maps iterate in insertion order: the first key is the least recently used.
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { tenant, value });
  }

  /** The values an event may have changed: its tenant's and every tenant's. */
  private evictFor(event: DomainEvent) {
    this.generation += 1;
    const touched = (tenant: string | null) => tenant === null || tenant === event.tenantId;
    for (const [key, entry] of this.entries) if (touched(entry.tenant)) this.entries.delete(key);
    for (const [key, flight] of this.loading) if (touched(flight.tenant)) this.loading.delete(key);
  }
}

/** The exact totals of a list's pages (see ListCache): `counts.get(scope, filter, () => count…)`. */
export const createListCounts = (events: EventBus, dependsOn: readonly Resource[], maxEntries?: number) =>
  new ListCache<number>(events, { dependsOn, ...(maxEntries === undefined ? {} : { maxEntries }) });

/**
 * The ids of a list's pages (see ListCache): `pages.get(scope, { filter, sort, offset, size }, () => page…)`.
 * The rows themselves are read fresh for each request; what is kept is which rows a page holds and
 * their order, so `dependsOn` names whatever the list sorts by as well as what it filters on.
 * Every console showing a list asks for the same page again when a change is announced on the
 * live channel: one query answers them all.
 */
export const createListPages = (events: EventBus, dependsOn: readonly Resource[]) =>
  new ListCache<number[]>(events, { dependsOn });
