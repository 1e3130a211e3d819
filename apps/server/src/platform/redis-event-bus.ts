import type { FastifyBaseLogger } from 'fastify';
import { type ChangeKind, createLocalEventBus, type DomainEvent, type EventBus, type Resource } from './events';
import { isRecord, jsonRecord, type RedisConnections } from './redis';

type Envelope = { instanceId: string; event: DomainEvent };

export type RedisEventBus = EventBus & {
  isLive: () => boolean;
  onResync: (handler: () => void) => () => void;
  /** Unsubscribes and closes the bus's subscriber connection (the command connection is the caller's). */
  close: () => Promise<void>;
};

/**
 * The domain events of every instance (docs/live-channel.md, "Several instances"). `publish`
 * delivers on this instance at once, synchronously, exactly as the in-process bus does (a cache
 * eviction is done before the request that caused it answers), then PUBLISHes
 * `{ instanceId, event }` on `${prefix}:domain-events`; what other instances publish is delivered
 * here from the subscription, and this instance's own messages coming back are skipped.
 *
 * Redis publish/subscribe keeps nothing for an instance that is not listening, so an event
 * published while this instance's subscription is down is lost to it. Hence:
 * - while the subscription is not live, `isLive()` is false and caches kept by events do not
 *   serve (the session cache resolves every request from the database);
 * - when it is live again, `onResync` handlers run and those caches drop everything: whatever
 *   they missed is gone with it. An explicit signal, rather than a synthetic domain event, so that
 *   no listener (the live channel pushes events to consoles) mistakes it for a real change.
 * An instance whose Redis is away publishes nothing to the others either; theirs may then serve
 * a stale session for at most the session cache's lifetime (5 s), as before Redis was used.
 */
export function createRedisEventBus(options: {
  redis: RedisConnections;
  prefix: string;
  instanceId: string;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>;
}): RedisEventBus {
  const { redis, prefix, instanceId, log } = options;
  const channel = `${prefix}:domain-events`;
  const local = createLocalEventBus(log);
  const resyncHandlers = new Set<() => void>();
  const subscriber = redis.subscriber('domain-events');
  let live = false;
  let closed = false;
  let publishFailing = false;

  // Subscribes on each (re)connection: ioredis does not resubscribe by itself here, so the bus
  // knows the moment it hears again.
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => {
        if (closed || subscriber.status !== 'ready') return;
        live = true;
        for (const handler of [...resyncHandlers]) {
          try {
            handler();
          } catch (err) {
            log.error({ err }, 'event bus resync handler failed');
          }
        }
      },
      (err: unknown) => {
        // The connection dropped again before the answer: the next 'ready' subscribes.
        log.debug({ err }, 'event bus subscription not made; the next connection makes it');
      },
    );
  });
  subscriber.on('close', () => {
    live = false;
  });
  subscriber.on('message', (from: string, payload: string) => {
    if (from !== channel) return;
    const envelope = parseEnvelope(payload);
    if (!envelope) {
      log.warn({ channel }, 'ignored a malformed domain event');
      return;
    }
    if (envelope.instanceId !== instanceId) local.publish(envelope.event);
  });

  return {
    publish(event) {
      local.publish(event);
      const envelope: Envelope = { instanceId, event };
      redis.command.publish(channel, JSON.stringify(envelope)).then(
        () => {
          publishFailing = false;
        },
        (err: unknown) => {
          // Logged once per run of failures: the outage itself is logged by the connection.
          if (!publishFailing) log.warn({ err, event }, 'domain event not sent to the other instances');
          publishFailing = true;
        },
      );
    },
    subscribe: local.subscribe,
    isLive: () => live,
    onResync(handler) {
      resyncHandlers.add(handler);
      return () => {
        resyncHandlers.delete(handler);
      };
    },
    async close() {
      closed = true;
      live = false;
      subscriber.removeAllListeners('message');
      if (subscriber.status === 'ready')
        await subscriber.quit().catch((err: unknown) => {
          // Closing anyway: a QUIT that failed leaves a connection only to cut.
          log.debug({ err }, 'event bus subscriber did not quit; disconnected');
          subscriber.disconnect();
        });
      else subscriber.disconnect();
    },
  };
}

// Records, so that a resource or kind added to the types must be added here too (or tsc fails).
const RESOURCES: Record<Resource, true> = {
  users: true,
  roles: true,
  companies: true,
  departments: true,
  statuses: true,
  tasks: true,
  schedules: true,
  sessions: true,
  tokens: true,
  workflows: true,
  directories: true,
  licenses: true,
  accounts: true,
  executions: true,
  notifications: true,
  webhooks: true,
};
const KINDS: Record<ChangeKind, true> = { created: true, updated: true, deleted: true, archived: true };

/** What another instance sent, checked: Redis is shared, and a bad message must not reach a subscriber. */
function parseEnvelope(payload: string): Envelope | undefined {
  const value = jsonRecord(payload);
  const { instanceId, event } = value ?? {};
  if (typeof instanceId !== 'string' || !isRecord(event)) return undefined;
  const { resource, kind, ids, tenantId } = event;
  if (typeof resource !== 'string' || !Object.hasOwn(RESOURCES, resource)) return undefined;
  if (typeof kind !== 'string' || !Object.hasOwn(KINDS, kind)) return undefined;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) return undefined;
  if (tenantId !== null && typeof tenantId !== 'string') return undefined;
  return { instanceId, event: event as DomainEvent };
}
