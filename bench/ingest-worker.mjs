// @ts-check
// A client process of bench/report-ingest.mjs, forked by it and told what to do over IPC:
//
// - `agents`: connects its agents (the agent headers of docs/live-channel.md), each subscribed to
//   /user/queue/workflows (whose first message lists the workflows it may run), /user/queue/commands
//   and /user/topic/errors; answers `connected` once all have their workflow list.
// - `run`: every agent sends `/agent/execution` reports with a receipt, one at a time, the next as
//   soon as the receipt of the one before is back (a refusal on /user/topic/errors ends it too), for
//   `seconds`: a run that ended just now, started 5 s to 20 min before, of one of its workflows,
//   8 % faulted (with an error), 1.5 % unknown. One report in `resendEvery` is sent a second time,
//   the same body: stored once, counted once. Answers `done` with the counts and the receipt
//   latencies' percentiles, and `progress` every second.
// - `stop`: closes everything and exits.
import { randomUUID } from 'node:crypto';
import { agentConnectHeaders, awaited, connectStomp, pool } from './live-stomp.mjs';

const send = (/** @type {any} */ message) => process.send?.(message);

/**
 * @typedef {{ key: string, mac: string, index: number, company: number }} Agent
 * @typedef {{ agent: Agent, connection: import('./live-stomp.mjs').StompConnection, workflows: number[],
 *   settle: ((refused: string | null) => void) | null }} Entry
 * @type {Entry[]}
 */
const entries = [];

/** @param {{ url: string, secret: string, agents: Agent[], concurrency: number }} task */
async function connectAgents(task) {
  const started = performance.now();
  const result = await pool(task.agents.length, task.concurrency, async (i) => {
    const agent = /** @type {Agent} */ (task.agents[i]);
    const list = awaited('workflow list');
    /** @type {Entry} */
    const entry = { agent, connection: /** @type {any} */ (undefined), workflows: [], settle: null };
    entry.connection = await connectStomp(task.url, agentConnectHeaders(task.secret, agent), {
      onMessage: (destination, body) => {
        if (destination === '/user/queue/workflows') {
          const changes = JSON.parse(body.toString());
          for (const workflow of changes.added ?? []) entry.workflows.push(workflow.id);
          list.settle();
        } else if (destination === '/user/topic/errors') {
          const refusal = JSON.parse(body.toString());
          const settle = entry.settle;
          entry.settle = null;
          settle?.(refusal.key ?? 'ERROR');
        }
      },
    });
    entry.connection.subscribe('/user/topic/errors');
    entry.connection.subscribe('/user/queue/commands');
    entry.connection.subscribe('/user/queue/workflows');
    await list.promise;
    entries.push(entry);
  });
  send({
    type: 'connected',
    connected: entries.length,
    failed: result.failed,
    reasons: result.reasons,
    seconds: (performance.now() - started) / 1000,
  });
}

const ERRORS = [
  ["Timeout waiting for window 'SAP Logon 770' after 30 s", 'sap-login'],
  ['Element not found: button#submit-invoice', 'click'],
  ['HTTP 503 Service Unavailable from https://erp.internal/api/orders', 'http-request'],
];

/** A report of a run that just ended. */
function report(/** @type {Entry} */ entry) {
  const end = Date.now() - Math.floor(Math.random() * 2000);
  const start = end - 5000 - Math.floor(Math.random() * 1_195_000);
  const roll = Math.random();
  const statusType = roll < 0.08 ? 'faulted' : roll < 0.095 ? 'unknown' : 'success';
  const error = statusType === 'faulted' ? ERRORS[Math.floor(Math.random() * ERRORS.length)] : undefined;
  return JSON.stringify({
    id: randomUUID(),
    workflowId: entry.workflows[Math.floor(Math.random() * entry.workflows.length)],
    executionStart: start,
    executionEnd: end,
    statusType,
    errorMessage: error?.[0] ?? null,
    errorActivity: error?.[1] ?? null,
  });
}

/** @param {{ seconds: number, resendEvery: number }} task */
async function run(task) {
  let sent = 0;
  let receipts = 0;
  let resends = 0;
  /** @type {Record<string, number>} */
  const refused = {};
  /** @type {number[]} */
  const latencies = [];
  const started = performance.now();
  const deadline = started + task.seconds * 1000;
  const progress = setInterval(() => send({ type: 'progress', receipts }), 1000);

  /** Sends `body` and waits for its receipt (or its refusal): null, or the refusal's key. */
  const exchange = (/** @type {Entry} */ entry, /** @type {string} */ body) =>
    new Promise((resolve) => {
      const receipt = `r-${entry.connection.nextId++}`;
      entry.settle = resolve;
      entry.connection.receipts.set(receipt, () => {
        if (entry.settle === resolve) entry.settle = null;
        resolve(null);
      });
      entry.connection.send('/agent/execution', body, { receipt });
    });

  await Promise.all(
    entries.map(async (entry) => {
      let count = 0;
      while (performance.now() < deadline && !entry.connection.closed) {
        count += 1;
        const body = report(entry);
        const bodies = task.resendEvery > 0 && count % task.resendEvery === 0 ? [body, body] : [body];
        for (const [n, each] of bodies.entries()) {
          const begun = performance.now();
          const key = await exchange(entry, each);
          latencies.push(performance.now() - begun);
          sent += 1;
          if (n > 0) resends += 1;
          if (key === null) receipts += 1;
          else refused[String(key)] = (refused[String(key)] ?? 0) + 1;
        }
      }
    }),
  );
  clearInterval(progress);
  latencies.sort((a, b) => a - b);
  const at = (/** @type {number} */ p) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;
  send({
    type: 'done',
    sent,
    receipts,
    resends,
    refused,
    seconds: (performance.now() - started) / 1000,
    latency: { p50: at(50), p95: at(95), p99: at(99), max: latencies.at(-1) ?? 0 },
    latencies: latencies.filter((_, i) => i % 10 === 0),
  });
}

process.on('message', (/** @type {any} */ task) => {
  const failed = (/** @type {unknown} */ error) =>
    send({ type: 'failed', message: /** @type {Error} */ (error).message ?? String(error) });
  if (task.type === 'agents') connectAgents(task).catch(failed);
  else if (task.type === 'run') run(task).catch(failed);
  else if (task.type === 'stop') {
    for (const entry of entries) entry.connection.close();
    setTimeout(() => process.exit(0), 200);
  }
});
