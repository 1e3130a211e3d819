import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/** The machine's Redis, shared with other runs: tests use their own key prefix and never flush. */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A port nothing listens on: a Redis that is down. */
export const DOWN_REDIS_URL = 'redis://127.0.0.1:6399';

export const testPrefix = () => `opsdeck-test-${randomUUID()}`;

export function quietLog() {
  const calls: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      void calls.push({ level, message: String(args.find((arg) => typeof arg === 'string') ?? '') });
  return { calls, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Deletes every key of a prefix (SCAN, never FLUSH: other runs share this Redis). */
export async function deleteKeys(prefix: string) {
  const admin = new Redis(REDIS_URL, { lazyConnect: true });
  await admin.connect();
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await admin.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await admin.quit();
}

/**
 * A TCP relay to the real Redis that a test can cut (every connection dropped, the port refusing)
 * and restore on the same port: an outage and a recovery without touching the shared Redis.
 */
export async function startRedisRelay(target = { host: '127.0.0.1', port: 6379 }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  async function start() {
    const next = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      sockets.add(client);
      sockets.add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', resolve);
    });
    port = (next.address() as AddressInfo).port;
    server = next;
  }

  async function stop() {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
  };
}

/** Until the condition holds (polling), or fails with the last error after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts of named happenings (a message heard, a reconnection tried, a sweep run), and promises
 * that resolve the moment a count is reached: a test waits on the event itself, never a fixed
 * sleep, and a timeout guard fails it, naming what did not come, if it never does.
 */
export type EventCounts = {
  add: (name: string) => void;
  count: (name: string) => number;
  /** Resolves once `name` has happened `count` times in all (at once if it has). */
  until: (name: string, count: number, timeoutMs?: number) => Promise<void>;
  /** Resolves once `name` has happened `more` times after this call. */
  more: (name: string, more: number, timeoutMs?: number) => Promise<void>;
};

export function eventCounts(): EventCounts {
  const counts = new Map<string, number>();
  const waiters = new Set<{ name: string; count: number; resolve: () => void }>();
  const count = (name: string) => counts.get(name) ?? 0;
  const until = (name: string, target: number, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      if (count(name) >= target) return resolve();
      const waiter = {
        name,
        count: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${target} × ${name} (saw ${count(name)})`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  return {
    add(name) {
      counts.set(name, count(name) + 1);
      for (const waiter of [...waiters]) {
        if (waiter.name !== name || count(name) < waiter.count) continue;
        waiters.delete(waiter);
        waiter.resolve();
      }
    },
    count,
    until,
    more: (name, more, timeoutMs) => until(name, count(name) + more, timeoutMs),
  };
}

/** Counts every `names` event `emitter` emits, under the event's name. */
export function countEmitted(
  emitter: { on: (name: string, listener: () => void) => unknown },
  names: readonly string[],
  counts: EventCounts = eventCounts(),
) {
  for (const name of names) emitter.on(name, () => counts.add(name));
  return counts;
}

/**
 * A redis-server of the test's own, on a free port, that the test may kill (SIGKILL) and start
 * again on the same port: a real outage without touching the machine's Redis. Keeps nothing on
 * disk (`--save '' --appendonly no`), so a restart comes back empty, as a Redis without
 * persistence does.
 */
export async function startRedisServer() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  let child: ChildProcess | undefined;

  async function start() {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
    });
    started.stdout!.resume();
  }

  /** Stops the server at once, like a crash; resolves once the process is gone. */
  async function kill() {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, kill };
}
