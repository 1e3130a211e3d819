import type { AgentConnection } from '@opsdeck/contract/live';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DOWN_REDIS_URL,
  deleteKeys,
  type EventCounts,
  eventCounts,
  quietLog,
  REDIS_URL,
  startRedisRelay,
  testPrefix,
} from '../../../test/redis';
import { AppError } from '../../platform/errors';
import { openRedis, type RedisConnections } from '../../platform/redis';
import type { BackplaneMessage, PresenceEntry } from './backplane';
import { createRedisBackplane } from './redis-backplane';

// A key lapses after 1.5 s unless refreshed (every 250 ms here): a stall of the busy machine's
// event loop must outlast 1.25 s to let a live instance's key lapse. At 600 ms, a CI worker's 400 ms
// stall did, and the backplane rightly told a reconnect the test did not expect.
const FAST = { instanceTtlMs: 1_500, sweepEveryMs: 250 };
/** The same heart-beat, with a key that outlives any stall: for the tests that count onReconnect calls. */
const STEADY = { ...FAST, instanceTtlMs: 10_000 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The connections as the backplane gets them, watched: what its timers and its subscription do
 * is counted as it happens (test/redis.ts, eventCounts), so that a test waits for it rather than
 * sleeping for as long as it should take:
 * - `tick`: a heart-beat or a sweep ran, Redis up or away (each first reads the connection's status);
 * - `heartbeat`: a heart-beat refreshed the instance's key and listed it (SET … GET, then SADD, answered);
 * - `sweep`: a sweep began (SMEMBERS of the instances' index). One begins only once the one before
 *   has ended, so `more('sweep', n + 1)` has seen n whole sweeps;
 * - `subscribed`: its SUBSCRIBE to the channel answered.
 * A count is added once the backplane's own handling of the answer has run (setImmediate).
 */
function watched(redis: RedisConnections, events: EventCounts): RedisConnections {
  const afterAnswer = (name: string, answer: Promise<unknown>) =>
    answer.then(
      () => setImmediate(() => events.add(name)),
      () => {},
    );
  const watch = <T extends object>(connection: T, counted: Record<string, (answer: Promise<unknown>) => void>) =>
    new Proxy(connection, {
      get(target, property) {
        if (property === 'status') events.add('tick');
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const count = typeof property === 'string' ? counted[property] : undefined;
        if (!count) return value.bind(target);
        return (...args: unknown[]) => {
          const answer = value.apply(target, args) as Promise<unknown>;
          count(answer);
          return answer;
        };
      },
    });
  return {
    ...redis,
    command: watch(redis.command, {
      smembers: () => events.add('sweep'),
      sadd: (answer) => afterAnswer('heartbeat', answer),
    }),
    subscriber: (role) => {
      const connection = redis.subscriber(role);
      // Its status is read on its own events, not by the timers: it counts no tick.
      return new Proxy(connection, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          if (property !== 'subscribe') return value.bind(target);
          return (...args: unknown[]) => {
            const answer = value.apply(target, args) as Promise<unknown>;
            afterAnswer('subscribed', answer);
            return answer;
          };
        },
      });
    },
  };
}

/**
 * An instance of the backplane on its own connections, with what it hears kept in order and counted
 * (`events`): `message` and `message:<type>`, `gone`, `reconnect`, and what `watched` counts.
 */
function instance(prefix: string, instanceId: string, url = REDIS_URL, timing = FAST) {
  const log = quietLog();
  const redis = openRedis({ url, name: `test-${instanceId}`, log });
  const events = eventCounts();
  const backplane = createRedisBackplane({ redis: watched(redis, events), prefix, instanceId, log, ...timing });
  const received: BackplaneMessage[] = [];
  const gone: string[] = [];
  backplane.onMessage((message) => {
    received.push(message);
    events.add('message');
    events.add(`message:${message.type}`);
  });
  backplane.onInstanceGone((id) => {
    gone.push(id);
    events.add('gone');
  });
  let stopped = false;
  const stop = async (how: 'close' | 'crash') => {
    if (stopped) return;
    stopped = true;
    if (how === 'close') await backplane.close();
    else backplane.crash();
    await redis.close();
  };
  cleanups.push(() => stop('close'));
  return { redis, backplane, received, gone, log, stop, events };
}

/**
 * The instances are announced (their key set, themselves listed) and subscribed (Redis counts them
 * on the channel): what `onReconnect`, the heart-beat and the delivery of messages rely on.
 */
async function ready(...instances: { events: EventCounts }[]) {
  await Promise.all(instances.flatMap(({ events }) => [events.until('heartbeat', 1), events.until('subscribed', 1)]));
}

function agent(sessionId: string): AgentConnection {
  return {
    sessionId,
    tenantId: 't-1',
    companyName: 'Acme',
    accountId: 1,
    firstName: 'Ada',
    lastName: 'Agent',
    macAddress: '00:11:22:33:44:55',
    hostname: `host-${sessionId}`,
    connectedAt: 1,
    workflows: [],
    queuedWorkflows: [],
  };
}

const entry = (instanceId: string, sessionId: string): PresenceEntry => ({
  instanceId,
  keyDigest: `digest-${sessionId}`,
  agent: agent(sessionId),
});

const down = (sessionId: string): BackplaneMessage => ({ type: 'agent-down', sessionId, tenantId: 't-1' });

async function agentsInHash(prefix: string) {
  const admin = new Redis(REDIS_URL);
  try {
    return Object.keys(await admin.hgetall(`${prefix}:live:agents`)).sort();
  } finally {
    await admin.quit();
  }
}

describe('the Redis backplane', () => {
  it('delivers every message to every instance, in publish order, its own before publish resolves', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    await ready(a, b);

    const messages = Array.from({ length: 100 }, (_, index) => down(`s-${index}`));
    await a.backplane.publish(messages[0]!);
    expect(a.received).toEqual([messages[0]]);
    await Promise.all(messages.slice(1).map((message) => a.backplane.publish(message)));
    expect(a.received).toEqual(messages);
    await b.events.until('message', messages.length);
    expect(b.received).toEqual(messages);

    await b.backplane.publish(down('from-b'));
    await a.events.until('message', messages.length + 1);
    // Nobody hears its own message twice. Redis delivers a channel's messages to a subscriber in
    // the order it took them: once B hears one A sent after hearing B's, and A one B sent after
    // that, any echo of B's (or of A's) would have come before.
    await a.backplane.publish(down('after-b'));
    await b.events.until('message', messages.length + 2);
    await b.backplane.publish(down('after-a'));
    await a.events.until('message', messages.length + 3);
    expect(a.received.slice(messages.length)).toEqual([down('from-b'), down('after-b'), down('after-a')]);
    expect(b.received.slice(messages.length)).toEqual([down('from-b'), down('after-b'), down('after-a')]);
  });

  it('gives an instance that starts later the presence of the live instances only', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    await ready(a);
    await a.backplane.saveAgent(entry('a', 's-1'));
    await a.backplane.saveAgent(entry('a', 's-2'));
    await a.backplane.saveAgent(entry('a', 's-3'));
    await a.backplane.deleteAgent('s-3');
    // Left by an instance that died before this test's sweepers knew of it.
    const admin = new Redis(REDIS_URL);
    cleanups.push(async () => void (await admin.quit()));
    await admin.hset(`${prefix}:live:agents`, 's-ghost', JSON.stringify(entry('ghost', 's-ghost')));

    const late = instance(prefix, 'late');
    await ready(late);
    const snapshot = await late.backplane.snapshot();
    expect(snapshot.map((item) => item.agent.sessionId).sort()).toEqual(['s-1', 's-2']);
    expect(snapshot[0]).toMatchObject({ instanceId: 'a', keyDigest: expect.stringMatching(/^digest-/) });
    // ...and the dead instance's entry is cleared by a sweep.
    await late.events.until('gone', 1, 2_000);
    expect(late.gone).toContain('ghost');
    expect(await agentsInHash(prefix)).toEqual(['s-1', 's-2']);
  });

  it('reports a killed instance gone once, within its TTL plus a sweep, and clears its agents', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    const c = instance(prefix, 'c');
    await ready(a, b, c);
    await a.backplane.saveAgent(entry('a', 'a-1'));
    await a.backplane.saveAgent(entry('a', 'a-2'));
    await b.backplane.saveAgent(entry('b', 'b-1'));

    const killedAt = Date.now();
    await a.stop('crash');
    await Promise.all([b.events.until('gone', 1, 5_000), c.events.until('gone', 1, 5_000)]);
    const elapsed = Date.now() - killedAt;
    expect(elapsed).toBeLessThanOrEqual(FAST.instanceTtlMs + FAST.sweepEveryMs + 500);
    // Two more whole sweeps on each, after the one that reported A: none reports it again.
    await Promise.all([b.events.more('sweep', 3), c.events.more('sweep', 3)]);
    // Two sweepers raced over the same dead instance: each reported it once, nothing else was lost.
    expect(b.gone).toEqual(['a']);
    expect(c.gone).toEqual(['a']);
    expect(await agentsInHash(prefix)).toEqual(['b-1']);
    expect((await c.backplane.snapshot()).map((item) => item.agent.sessionId)).toEqual(['b-1']);
  });

  it('on a graceful close removes its agents and key, and the others learn at once', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    await ready(a, b);
    await a.backplane.saveAgent(entry('a', 'a-1'));
    await b.backplane.saveAgent(entry('b', 'b-1'));
    await a.backplane.publish(down('hello')); // B has heard of A

    const closedAt = Date.now();
    await a.stop('close');
    expect(await agentsInHash(prefix)).toEqual(['b-1']);
    const admin = new Redis(REDIS_URL);
    cleanups.push(async () => void (await admin.quit()));
    expect(await admin.exists(`${prefix}:live:instance:a`)).toBe(0);
    await b.events.until('gone', 1, 2_000);
    expect(Date.now() - closedAt).toBeLessThan(FAST.instanceTtlMs);
    expect(b.gone).toEqual(['a']);
  });

  it('refuses with 503 while Redis is down, keeps running, and never throws from its timers', async () => {
    const prefix = testPrefix();
    const a = instance(prefix, 'a', DOWN_REDIS_URL);
    const failures = await Promise.all([
      a.backplane.publish(down('s-1')).catch((err: unknown) => err),
      a.backplane.saveAgent(entry('a', 's-1')).catch((err: unknown) => err),
      a.backplane.deleteAgent('s-1').catch((err: unknown) => err),
      a.backplane.snapshot().catch((err: unknown) => err),
    ]);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ statusCode: 503, key: 'ERROR_SERVICE_UNAVAILABLE' });
    }
    // A refused message reached nobody, this instance included.
    expect(a.received).toEqual([]);
    // Heartbeats and sweeps run through the outage (an unhandled rejection would fail this file):
    // eight more of them, four sweeps' worth.
    await a.events.more('tick', 8);
    await a.stop('close');
  });

  it('calls onReconnect once Redis answers when the snapshot at start was refused', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const other = instance(prefix, 'other');
    await ready(other);
    await other.backplane.saveAgent(entry('other', 'o-1'));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    await relay.stop();

    const a = instance(prefix, 'a', relay.url, STEADY);
    let reconnects = 0;
    a.backplane.onReconnect(() => {
      reconnects += 1;
      a.events.add('reconnect');
    });
    await expect(a.backplane.snapshot()).rejects.toMatchObject({ statusCode: 503 });
    await relay.start();
    await a.events.until('reconnect', 1, 10_000);
    expect((await a.backplane.snapshot()).map((item) => item.agent.sessionId)).toEqual(['o-1']);
    // Three more heart-beats, each of which would have called it again.
    await a.events.more('heartbeat', 3);
    expect(reconnects).toBe(1);
  });

  it('says when it hears the others at start, and says at once when Redis is away, then rejoins', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const other = instance(prefix, 'other');
    await ready(other);
    const a = instance(prefix, 'a', REDIS_URL, STEADY);
    // Subscribed when it says so: the next message of another instance reaches it.
    expect(await a.backplane.whenSubscribed!(20_000)).toBe(true);
    await other.backplane.publish(down('first'));
    await a.events.until('message', 1);

    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    await relay.stop();
    const late = instance(prefix, 'late', relay.url, STEADY);
    let reconnects = 0;
    late.backplane.onReconnect(() => {
      reconnects += 1;
      late.events.add('reconnect');
    });
    // Redis away: it answers false at its connection's first failure, long before the 20 s (the
    // test's own limit is shorter), and the start counts as a gap: onReconnect once Redis answers.
    expect(await late.backplane.whenSubscribed!(20_000)).toBe(false);
    await relay.start();
    await late.events.until('reconnect', 1, 10_000);
    expect(reconnects).toBe(1);
  }, 15_000);

  it('does not call onReconnect after a start that went well', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a', REDIS_URL, STEADY);
    let reconnects = 0;
    a.backplane.onReconnect(() => {
      reconnects += 1;
    });
    expect(await a.redis.whenReady(5_000)).toBe(true);
    expect(await a.backplane.snapshot()).toEqual([]);
    // Subscribed, and three heart-beats after its first: each would have called it.
    await ready(a);
    await a.events.until('heartbeat', 4);
    expect(reconnects).toBe(0);
  });

  it('re-announces itself after an outage that outlasted its TTL, through onReconnect', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    const a = instance(prefix, 'a', relay.url);
    const b = instance(prefix, 'b');
    await ready(a, b);
    const mine = [entry('a', 'a-1')];
    let reconnects = 0;
    a.backplane.onReconnect(() => {
      reconnects += 1;
      a.events.add('reconnect');
      // What the events service does: put its agents back and announce them again.
      void (async () => {
        for (const item of mine) {
          await a.backplane.saveAgent(item);
          await a.backplane.publish({
            type: 'agent-up',
            instanceId: 'a',
            agent: item.agent,
            keyDigest: item.keyDigest,
          });
        }
      })();
    });
    await a.backplane.saveAgent(mine[0]!);
    await a.backplane.publish(down('hello'));

    await relay.stop();
    await expect(a.backplane.publish(down('during'))).rejects.toMatchObject({ statusCode: 503 });
    // B sees A's key lapse and drops its agents.
    await b.events.until('gone', 1, 6_000);
    expect(b.gone).toEqual(['a']);
    expect(await agentsInHash(prefix)).toEqual([]);

    await relay.start();
    await a.events.until('reconnect', 1, 10_000);
    await b.events.until('message:agent-up', 1);
    expect(await agentsInHash(prefix)).toEqual(['a-1']);
    expect((await b.backplane.snapshot()).map((item) => item.instanceId)).toEqual(['a']);
    // Three more heart-beats, each of which would have called it again.
    await a.events.more('heartbeat', 3);
    expect(reconnects).toBe(1);
    // Alive again for B: if it dies now, it is reported again.
    await a.stop('crash');
    await b.events.until('gone', 2, 6_000);
    expect(b.gone).toEqual(['a', 'a']);
  });
});
