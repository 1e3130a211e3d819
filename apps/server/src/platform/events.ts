import type { FastifyBaseLogger } from 'fastify';

/** The resources whose changes other parts of the server (caches, later the live channel) follow. */
export type Resource =
  | 'users'
  | 'roles'
  | 'companies'
  | 'departments'
  | 'statuses'
  | 'tasks'
  | 'schedules'
  | 'sessions'
  /** API tokens: a revoked one ends at once on every instance (its cached caller is evicted). */
  | 'tokens'
  | 'workflows'
  | 'directories'
  /**
   * Licences and keys (accounts): made, renewed or invalidated ('updated'), a solo licence archived
   * with its key, deleted. A licence's event stands for every key of it (a deleted licence's keys go
   * with it, unannounced). Events name rows, not states: a listener reads the state (the live
   * channel disconnects at once the agents whose key no longer passes).
   */
  | 'licenses'
  | 'accounts'
  /**
   * Execution logs stored: one 'created' event per company and committed batch of agents'
   * reports, its `ids` empty (a log's id is a UUID; a listener reads what it keeps again).
   */
  | 'executions'
  /**
   * Notifications written for people (docs/alerts.md): `ids` the new notifications. Each instance's
   * live channel pushes them to the consoles of their people it holds.
   */
  | 'notifications'
  /** Webhook endpoints made, changed (a person, or the sender disabling one), deleted. */
  | 'webhooks';

export type ChangeKind = 'created' | 'updated' | 'deleted' | 'archived';

/**
 * What changed, said by the service that changed it, after its transaction committed. `tenantId`
 * is the company the row belongs to (null for the provider's own rows); `ids` the rows.
 */
export type DomainEvent = {
  readonly resource: Resource;
  readonly kind: ChangeKind;
  readonly ids: readonly number[];
  readonly tenantId: string | null;
};

export type Subscriber = (event: DomainEvent) => void | Promise<void>;

/**
 * A publish/subscribe bus of domain events. In-process today; the live-channel issue carries the
 * same interface across server instances over Redis (publish locally, fan out through a channel)
 * and pushes the events to consoles, so services never learn who listens.
 */
export type EventBus = {
  publish: (event: DomainEvent) => void;
  /** Returns the function that unsubscribes. */
  subscribe: (subscriber: Subscriber, filter?: { resources?: readonly Resource[] }) => () => void;
  /**
   * Whether the events of every other instance reach this one now (in-process: always). While it
   * is false, a cache kept exact by events must not serve: it may have missed an eviction.
   * Optional so that a bus written before it still fits; absent means always live.
   */
  isLive?: () => boolean;
  /**
   * Called when this instance may have missed events (its subscription to the other instances came
   * back after a gap): every cache kept by events drops everything. Returns the function that
   * unsubscribes. Optional like isLive; the in-process bus never calls it.
   */
  onResync?: (handler: () => void) => () => void;
};

/**
 * The in-process bus. Subscribers run synchronously in publish order (a cache eviction is done
 * before the request that caused it answers); one that throws or rejects is logged and the others
 * still run: a listener's fault never fails the change that was already committed.
 */
export function createLocalEventBus(log?: Pick<FastifyBaseLogger, 'error'>): EventBus {
  const subscribers = new Set<{ subscriber: Subscriber; resources?: ReadonlySet<Resource> }>();
  const report = (err: unknown, event: DomainEvent) => log?.error({ err, event }, 'event subscriber failed');

  return {
    publish(event) {
      for (const entry of [...subscribers]) {
        if (entry.resources && !entry.resources.has(event.resource)) continue;
        try {
          const result = entry.subscriber(event);
          if (result instanceof Promise) result.catch((err: unknown) => report(err, event));
        } catch (err) {
          report(err, event);
        }
      }
    },
    subscribe(subscriber, filter) {
      const entry = { subscriber, ...(filter?.resources ? { resources: new Set(filter.resources) } : {}) };
      subscribers.add(entry);
      return () => {
        subscribers.delete(entry);
      };
    },
    isLive: () => true,
    onResync: () => () => {},
  };
}
