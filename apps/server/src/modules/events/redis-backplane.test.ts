import type { AgentConnection } from '@opsdeck/contract/live';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DOWN_REDIS_URL,
  deleteKeys,
  quietLog,
  REDIS_URL,
  sleep,
  startRedisRelay,
  testPrefix,
  until,
} from '../../../test/redis';
import { AppError } from '../../platform/errors';
import { openRedis } from '../../platform/redis';
import type { BackplaneMessage, PresenceEntry } from './backplane';
import { createRedisBackplane, type RedisBackplane } from './redis-backplane';

const FAST = { instanceTtlMs: 600, sweepEveryMs: 200 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function instance(prefix: string, instanceId: string, url = REDIS_URL) {
  const log = quietLog();
  const redis = openRedis({ url, name: `test-${instanceId}`, log });
  const backplane = createRedisBackplane({ redis, prefix, instanceId, log, ...FAST });
  const received: BackplaneMessage[] = [];
  const gone: string[] = [];
  backplane.onMessage((message) => void received.push(message));
  backplane.onInstanceGone((id) => void gone.push(id));
  let stopped = false;
  const stop = async (how: 'close' | 'crash') => {
    if (stopped) return;
    stopped = true;
    if (how === 'close') await backplane.close();
    else backplane.crash();
    await redis.close();
  };
  cleanups.push(() => stop('close'));
  return { redis, backplane, received, gone, log, stop };
}

/** The instance is announced and subscribed: what `onReconnect` and the heartbeat rely on. */
async function ready(prefix: string, ...instances: { backplane: RedisBackplane; redis: { status: () => string } }[]) {
  const admin = new Redis(REDIS_URL);
  try {
    await until(() => instances.every(({ redis }) => redis.status() === 'ready'), 5_000, 'connections');
    for (const { backplane } of instances) {
      const key = `${prefix}:live:instance:${backplane.instanceId}`;
      const deadline = Date.now() + 5_000;
      while ((await admin.exists(key)) === 0) {
        if (Date.now() > deadline) throw new Error(`no liveness key for ${backplane.instanceId}`);
        await sleep(20);
      }
    }
  } finally {
    await admin.quit();
  }
}

/** Until Redis counts `count` subscribers of the prefix's channel: their SUBSCRIBE answered. */
async function subscribers(prefix: string, count: number) {
  const admin = new Redis(REDIS_URL);
  try {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const [, subscribed] = (await admin.pubsub('NUMSUB', `${prefix}:live`)) as [string, number];
      if (Number(subscribed) >= count) return;
      if (Date.now() > deadline) throw new Error(`${subscribed} of ${count} subscribers on ${prefix}:live`);
      await sleep(10);
    }
  } finally {
    await admin.quit();
  }
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
    await ready(prefix, a, b);
    await subscribers(prefix, 2);

    const messages = Array.from({ length: 100 }, (_, index) => down(`s-${index}`));
    await a.backplane.publish(messages[0]!);
    expect(a.received).toEqual([messages[0]]);
    await Promise.all(messages.slice(1).map((message) => a.backplane.publish(message)));
    expect(a.received).toEqual(messages);
    await until(() => b.received.length === messages.length, 5_000, 'B to hear all');
    expect(b.received).toEqual(messages);

    await b.backplane.publish(down('from-b'));
    await until(() => a.received.length === messages.length + 1, 5_000, 'A to hear B');
    // Nobody hears its own message twice. Redis delivers a channel's messages to a subscriber in
    // the order it took them: once B hears one A sent after hearing B's, and A one B sent after
    // that, any echo of B's (or of A's) would have come before.
    await a.backplane.publish(down('after-b'));
    await until(() => b.received.length === messages.length + 2, 5_000, 'B to hear A after its own');
    await b.backplane.publish(down('after-a'));
    await until(() => a.received.length === messages.length + 3, 5_000, 'A to hear B after its own');
    expect(a.received.slice(messages.length)).toEqual([down('from-b'), down('after-b'), down('after-a')]);
    expect(b.received.slice(messages.length)).toEqual([down('from-b'), down('after-b'), down('after-a')]);
  });

  it('gives an instance that starts later the presence of the live instances only', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    await ready(prefix, a);
    await a.backplane.saveAgent(entry('a', 's-1'));
    await a.backplane.saveAgent(entry('a', 's-2'));
    await a.backplane.saveAgent(entry('a', 's-3'));
    await a.backplane.deleteAgent('s-3');
    // Left by an instance that died before this test's sweepers knew of it.
    const admin = new Redis(REDIS_URL);
    cleanups.push(async () => void (await admin.quit()));
    await admin.hset(`${prefix}:live:agents`, 's-ghost', JSON.stringify(entry('ghost', 's-ghost')));

    const late = instance(prefix, 'late');
    await ready(prefix, late);
    const snapshot = await late.backplane.snapshot();
    expect(snapshot.map((item) => item.agent.sessionId).sort()).toEqual(['s-1', 's-2']);
    expect(snapshot[0]).toMatchObject({ instanceId: 'a', keyDigest: expect.stringMatching(/^digest-/) });
    // ...and the dead instance's entry is cleared by a sweep.
    await until(() => late.gone.includes('ghost'), 2_000, 'the ghost reported');
    expect(await agentsInHash(prefix)).toEqual(['s-1', 's-2']);
  });

  it('reports a killed instance gone once, within its TTL plus a sweep, and clears its agents', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    const c = instance(prefix, 'c');
    await ready(prefix, a, b, c);
    await a.backplane.saveAgent(entry('a', 'a-1'));
    await a.backplane.saveAgent(entry('a', 'a-2'));
    await b.backplane.saveAgent(entry('b', 'b-1'));

    const killedAt = Date.now();
    await a.stop('crash');
    await until(() => b.gone.length > 0 && c.gone.length > 0, 3_000, 'A reported gone');
    const elapsed = Date.now() - killedAt;
    expect(elapsed).toBeLessThanOrEqual(FAST.instanceTtlMs + FAST.sweepEveryMs + 300);
    await sleep(3 * FAST.sweepEveryMs);
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
    await ready(prefix, a, b);
    await a.backplane.saveAgent(entry('a', 'a-1'));
    await b.backplane.saveAgent(entry('b', 'b-1'));
    await a.backplane.publish(down('hello')); // B has heard of A

    const closedAt = Date.now();
    await a.stop('close');
    expect(await agentsInHash(prefix)).toEqual(['b-1']);
    const admin = new Redis(REDIS_URL);
    cleanups.push(async () => void (await admin.quit()));
    expect(await admin.exists(`${prefix}:live:instance:a`)).toBe(0);
    await until(() => b.gone.length > 0, 2_000, 'B told');
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
    // Heartbeats and sweeps run through the outage (an unhandled rejection would fail this file).
    await sleep(4 * FAST.sweepEveryMs);
    await a.stop('close');
  });

  it('calls onReconnect once Redis answers when the snapshot at start was refused', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const other = instance(prefix, 'other');
    await ready(prefix, other);
    await other.backplane.saveAgent(entry('other', 'o-1'));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    await relay.stop();

    const a = instance(prefix, 'a', relay.url);
    let reconnects = 0;
    a.backplane.onReconnect(() => {
      reconnects += 1;
    });
    await expect(a.backplane.snapshot()).rejects.toMatchObject({ statusCode: 503 });
    await relay.start();
    await until(() => reconnects > 0, 10_000, 'A to join');
    expect((await a.backplane.snapshot()).map((item) => item.agent.sessionId)).toEqual(['o-1']);
    await sleep(3 * FAST.sweepEveryMs);
    expect(reconnects).toBe(1);
  });

  it('does not call onReconnect after a start that went well', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    let reconnects = 0;
    a.backplane.onReconnect(() => {
      reconnects += 1;
    });
    expect(await a.redis.whenReady(5_000)).toBe(true);
    expect(await a.backplane.snapshot()).toEqual([]);
    await sleep(3 * FAST.sweepEveryMs);
    expect(reconnects).toBe(0);
  });

  it('re-announces itself after an outage that outlasted its TTL, through onReconnect', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    const a = instance(prefix, 'a', relay.url);
    const b = instance(prefix, 'b');
    await ready(prefix, a, b);
    const mine = [entry('a', 'a-1')];
    let reconnects = 0;
    a.backplane.onReconnect(() => {
      reconnects += 1;
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
    await until(() => b.gone.includes('a'), 3_000, 'A reported gone');
    expect(await agentsInHash(prefix)).toEqual([]);

    await relay.start();
    await until(() => reconnects > 0, 10_000, 'A to rejoin');
    await until(() => b.received.some((message) => message.type === 'agent-up'), 5_000, 'the re-announce');
    expect(await agentsInHash(prefix)).toEqual(['a-1']);
    expect((await b.backplane.snapshot()).map((item) => item.instanceId)).toEqual(['a']);
    await sleep(3 * FAST.sweepEveryMs);
    expect(reconnects).toBe(1);
    // Alive again for B: if it dies now, it is reported again.
    await a.stop('crash');
    await until(() => b.gone.length === 2, 3_000, 'A gone again');
    expect(b.gone).toEqual(['a', 'a']);
  });
});
