// @ts-check
// Live channel, fan-out: one publisher to `--subscribers` subscribers (1,000), messages delivered
// per second, Opsdeck against RabbitMQ's Web-STOMP in the same run, with the same client code
// (bench/live-stomp.mjs, subscribers in `--workers` client processes of bench/live-worker.mjs).
// Opsdeck (PGlite by default, seeded by bench/seed-live.ts with one company and one key): one agent
// sends `/agent/queue` changes, 1,000 consoles (one signed-in head's token, reused) subscribed to
// `/topic/queue/{t}` receive them. RabbitMQ (127.0.0.1, guest/guest, vhost '/'; Web-STOMP enabled
// here with `rabbitmq-plugins enable rabbitmq_web_stomp` if ws://127.0.0.1:15674/ws does not
// answer, and left running): one publisher SENDs to `/topic/bench`, 1,000 subscribers on it, the
// body the same JSON Opsdeck's consoles receive. The publisher runs a closed loop: it sends while
// the slowest subscriber is fewer than `--window` messages behind (so neither broker buffers without
// bound), for `--seconds` after a 2 s warm-up. Reports deliveries/s, messages/s, the broker's CPU
// and RSS, Opsdeck's ratio to RabbitMQ.
// `node bench/live-fanout.mjs [--subscribers 1000] [--seconds 20] [--window 100] [--brokers opsdeck,rabbitmq]`
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  loadAverage,
  onEachBackend,
  processState,
  removeOnExit,
  signedInHeaders,
  startServer,
  waitFor,
} from './lib.mjs';
import {
  consoleHeaders,
  liveUrl,
  options,
  rssMiB,
  seedLive,
  serverEnv,
  serverNodeArgs,
  startWorker,
  table,
  waitForLive,
} from './live-lib.mjs';
import { connectStomp } from './live-stomp.mjs';

const opts = options({
  subscribers: 1000,
  seconds: 20,
  window: 100,
  workers: 2,
  concurrency: 20,
  brokers: 'opsdeck,rabbitmq',
});
const port = 8392;
const RABBIT_URL = 'ws://127.0.0.1:15674/ws';
process.env.BENCH_BACKENDS ??= 'pglite';

/** @type {string[]} */
const failures = [];
/** @type {(string | number)[][]} */
const rows = [
  [
    'broker',
    'subscribers',
    'messages/s',
    'deliveries/s',
    'broker CPU',
    'deliveries per CPU s',
    'RSS before → peak',
    'load',
  ],
];
/** @type {Record<string, number>} */
const rates = {};
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Connects the subscribers (in the workers), then publishes for the warm-up and `opts.seconds`
 * through `publish(seq)`, pacing on the slowest subscriber.
 * @param {{ name: string, pid: number, url: string, headers: Record<string, string>, destination: string,
 *   publish: (seq: number) => boolean }} broker
 */
async function run(broker) {
  /** @type {import('./live-lib.mjs').Worker[]} */
  const workers = [];
  try {
    for (let i = 0; i < opts.workers; i += 1) workers.push(startWorker());
    const per = Math.ceil(opts.subscribers / opts.workers);
    const counts = workers.map((_, i) => Math.max(0, Math.min(per, opts.subscribers - i * per)));
    const subscribed = await Promise.all(
      workers.map((worker, i) => {
        worker.tell({
          type: 'subscribers',
          url: broker.url,
          headers: broker.headers,
          count: counts[i],
          destination: broker.destination,
          concurrency: opts.concurrency,
        });
        return worker.next('subscribed');
      }),
    );
    const failed = subscribed.reduce((sum, result) => sum + result.failed, 0);
    if (failed > 0) {
      failures.push(`${broker.name}: ${failed} subscribers failed ${JSON.stringify(subscribed.map((s) => s.reasons))}`);
    }
    /** The latest report of each worker. */
    const state = workers.map(() => ({ delivered: 0, minSeq: -1, dropped: 0 }));
    let sent = 0;
    let stopped = false;
    const pump = () => {
      if (stopped) return;
      const slowest = Math.min(...state.map((each) => each.minSeq));
      while (sent - 1 - slowest < opts.window) {
        if (!broker.publish(sent)) {
          stopped = true;
          failures.push(`${broker.name}: the publisher's connection closed`);
          return;
        }
        sent += 1;
      }
    };
    workers.forEach((worker, i) => {
      worker.on('fanout', (message) => {
        state[i] = message;
        pump();
      });
    });
    const total = () => state.reduce((sum, each) => sum + each.delivered, 0);
    const beforeRss = rssMiB(broker.pid);
    pump();
    await sleep(2000);
    const start = { delivered: total(), sent, cpu: processState(broker.pid).cpu, at: performance.now() };
    let peak = rssMiB(broker.pid);
    let lastTotal = total();
    for (let s = 0; s < opts.seconds; s += 1) {
      await sleep(1000);
      peak = Math.max(peak, rssMiB(broker.pid));
      if (total() === lastTotal) {
        failures.push(`${broker.name}: no delivery for a second (stalled at ${sent} sent)`);
        break;
      }
      lastTotal = total();
    }
    const end = { delivered: total(), sent, cpu: processState(broker.pid).cpu, at: performance.now() };
    stopped = true;
    const seconds = (end.at - start.at) / 1000;
    const deliveries = (end.delivered - start.delivered) / seconds;
    const cpu = end.cpu - start.cpu;
    const dropped = state.reduce((sum, each) => sum + each.dropped, 0);
    if (dropped > 0) failures.push(`${broker.name}: ${dropped} subscribers dropped`);
    rates[broker.name] = deliveries;
    rows.push([
      broker.name,
      opts.subscribers - failed - dropped,
      ((end.sent - start.sent) / seconds).toFixed(0),
      deliveries.toFixed(0),
      `${((cpu / seconds) * 100).toFixed(0)} %`,
      (((end.delivered - start.delivered) / cpu) | 0).toString(),
      `${beforeRss.toFixed(0)} → ${peak.toFixed(0)} MiB`,
      loadAverage(),
    ]);
    console.log(
      `  ${broker.name}: ${(deliveries / 1000).toFixed(1)}k deliveries/s, ${((end.sent - start.sent) / seconds).toFixed(0)} ` +
        `messages/s, broker CPU ${((cpu / seconds) * 100).toFixed(0)} %, RSS ${beforeRss.toFixed(0)} → ${peak.toFixed(0)} MiB; ` +
        `load average ${loadAverage()}`,
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

/** An agent's queue change; `sessionId` added, it is the body Opsdeck's consoles receive (RabbitMQ's subscribers get that). */
const change = (/** @type {number} */ seq, /** @type {string} */ sessionId = '') =>
  JSON.stringify({
    ...(sessionId ? { sessionId } : {}),
    added: [],
    updated: [
      {
        id: 1,
        workflowId: 1,
        name: `bench ${seq} ${Date.now()}`,
        status: 'EXECUTING',
        position: 0,
        executionStart: Date.now(),
      },
    ],
    removed: [],
  });

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function opsdeck(label, env) {
  const seeded = seedLive(env, { companies: 1, keys: 1, workflows: 1 });
  const logDir = removeOnExit(mkdtempSync(path.join(tmpdir(), 'opsdeck-live-log-')));
  const logFile = path.join(logDir, 'server.log');
  const server = startServer({ port, env: serverEnv(env), logFile, nodeArgs: serverNodeArgs() });
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    await waitForLive(liveUrl(port));
    const company = /** @type {(typeof seeded.companies)[number]} */ (seeded.companies[0]);
    const agent = /** @type {(typeof seeded.agents)[number]} */ (seeded.agents[0]);
    const token = (await signedInHeaders(port, company))['x-auth-token'];
    const publisher = await connectStomp(liveUrl(port), {
      'X-App-Key': 'opsdeck-agent',
      'X-App-Secret': serverEnv({}).AGENT_SECRET,
      'license-key': agent.key,
      'mac-address': agent.mac,
      hostname: 'WS-PUBLISHER',
      platform: 'agent',
    });
    try {
      await run({
        name: `Opsdeck (${label})`,
        pid: /** @type {number} */ (server.child.pid),
        url: liveUrl(port),
        headers: consoleHeaders(token),
        destination: `/topic/queue/${company.tenantId}`,
        publish: (seq) => publisher.send('/agent/queue', change(seq)),
      });
    } finally {
      publisher.close();
    }
  } finally {
    await server.stop();
    const log = readFileSync(logFile, 'utf8').trim().split('\n').slice(6).join('\n');
    if (log) console.log(`  server log (warnings and errors, first 2,000 characters):\n${log.slice(0, 2000)}`);
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** The RabbitMQ node's process (beam.smp), for its CPU and memory. */
function rabbitPid() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim().startsWith('beam.smp')) {
        const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        if (command.includes('rabbit')) return Number(entry);
      }
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('no RabbitMQ node (beam.smp) is running');
}

async function rabbitmq() {
  const guest = { login: 'guest', passcode: 'guest', host: '/' };
  const probe = () =>
    connectStomp(RABBIT_URL, guest, { connectTimeoutMs: 3000 }).then(
      (connection) => {
        connection.close();
        return true;
      },
      () => false,
    );
  if (!(await probe())) {
    console.log('  enabling RabbitMQ Web-STOMP (rabbitmq-plugins enable rabbitmq_web_stomp)');
    execFileSync('rabbitmq-plugins', ['enable', 'rabbitmq_web_stomp'], { stdio: 'inherit' });
    const deadline = Date.now() + 60_000;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`${RABBIT_URL} did not answer within 60 s`);
      await sleep(500);
    }
  }
  const pid = rabbitPid();
  // Each subscriber is a socket of the RabbitMQ node: past its open-files limit (1,024 here unless
  // the service raises it) it fails with emfile, its memory monitor dies and it stops declaring
  // queues until `rabbitmqctl stop_app; rabbitmqctl start_app`. Refuse rather than break it.
  const limit = Number(/Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1] ?? 0);
  if (limit && opts.subscribers + 200 > limit * 0.9) {
    failures.push(
      `RabbitMQ: not run: its open-files limit is ${limit} (ulimit -n of the RabbitMQ service), too few for ` +
        `${opts.subscribers} subscribers; use --subscribers ${Math.floor((limit * 0.9 - 200) / 100) * 100} or raise it`,
    );
    return;
  }
  const publisher = await connectStomp(RABBIT_URL, guest);
  try {
    await run({
      name: 'RabbitMQ Web-STOMP',
      pid,
      url: RABBIT_URL,
      headers: guest,
      destination: '/topic/bench',
      publish: (seq) => publisher.send('/topic/bench', change(seq, '5f0c2d1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f')),
    });
  } finally {
    publisher.close();
  }
}

console.log(
  `\nFan-out: 1 publisher → ${opts.subscribers} subscribers, window ${opts.window} messages, ${opts.seconds} s ` +
    `after a 2 s warm-up, ${opts.workers} client processes; load average ${loadAverage()}`,
);
const brokers = opts.brokers.split(',');
if (brokers.includes('opsdeck')) await onEachBackend('live', opsdeck);
if (brokers.includes('rabbitmq')) await rabbitmq();
console.log(`\n2 cores, load average at the end ${loadAverage()}:\n${table(rows)}`);
const rabbit = rates['RabbitMQ Web-STOMP'];
for (const [name, rate] of Object.entries(rates)) {
  if (name.startsWith('Opsdeck') && rabbit) {
    const ratio = rate / rabbit;
    console.log(`  ${name} / RabbitMQ: ${ratio.toFixed(2)} (aim ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
  }
}
if (failures.length > 0) {
  console.error(`\n${failures.length} thing(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
process.exit(0);
