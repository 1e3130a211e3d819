// @ts-check
// A client process of bench/activity-ingest.mjs, forked by it and told what to do over IPC:
//
// - `agents`: connects its agents (the agent headers of docs/live-channel.md), each subscribed to
//   /user/queue/workflows (its first message says the agent is listed), /user/queue/commands and
//   /user/topic/errors; answers `connected` once all are.
// - `run`: every agent sends `/agent/activity` frames of `spans` events with a receipt, one at a
//   time, the next as soon as the receipt of the one before is back, for `seconds`. A frame is
//   what an agent that buffered a while sends: the spans it left open in its last frame, now
//   ended (a resend moving the end), and new spans of the last two hours, a fifth of them still
//   open: applications (60 %), idle, status, task and session spans, 5 s to 10 min long, some
//   across a bucket's edge. One frame in `resendEvery` is sent a second time, unchanged (stored
//   once, counted once). A refused span counts as refused (none should be). Answers `done` with the
//   counts and the receipt latencies, and `progress` every second.
// - `stop`: closes everything and exits.
import { randomUUID } from 'node:crypto';
import { agentConnectHeaders, awaited, connectStomp, pool } from './live-stomp.mjs';

const send = (/** @type {any} */ message) => process.send?.(message);

/**
 * @typedef {{ key: string, mac: string, index: number, company: number, statusId: number, taskId: number }} Agent
 * @typedef {{ agent: Agent, connection: import('./live-stomp.mjs').StompConnection, open: any[],
 *   refused: Record<string, number>, settle: (() => void) | null }} Entry
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
    const entry = { agent, connection: /** @type {any} */ (undefined), open: [], refused: {}, settle: null };
    entry.connection = await connectStomp(task.url, agentConnectHeaders(task.secret, agent), {
      onMessage: (destination, body) => {
        if (destination === '/user/queue/workflows') list.settle();
        else if (destination === '/user/topic/errors') {
          const refusal = JSON.parse(body.toString());
          const key = refusal.id ? refusal.key : `frame ${refusal.key}`;
          entry.refused[key] = (entry.refused[key] ?? 0) + 1;
          // A frame refused whole has no receipt: the agent goes on.
          if (!refusal.id) {
            const settle = entry.settle;
            entry.settle = null;
            settle?.();
          }
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

const APPLICATIONS = ['Excel', 'Outlook', 'SAP GUI', 'Chrome', 'Teams', 'Word', 'Acrobat Reader', 'Notepad++'];
const pick = (/** @type {any[]} */ items) => items[Math.floor(Math.random() * items.length)];

/** A new span of the last two hours; a fifth still open. */
function newSpan(/** @type {Agent} */ agent) {
  const now = Date.now();
  const start = now - Math.floor(Math.random() * 7_200_000);
  const end = Math.random() < 0.2 ? null : Math.min(now, start + 5000 + Math.floor(Math.random() * 595_000));
  const roll = Math.random();
  const id = randomUUID();
  if (roll < 0.6) return { id, kind: 'app', start, end, application: pick(APPLICATIONS) };
  if (roll < 0.7) return { id, kind: 'idle', start, end };
  if (roll < 0.8) return { id, kind: 'status', start, end, statusId: agent.statusId };
  if (roll < 0.9) return { id, kind: 'task', start, end, taskId: agent.taskId };
  return { id, kind: 'session', start, end };
}

/** A frame: the spans left open last time, ended now, then new ones up to `size`. */
function frame(/** @type {Entry} */ entry, /** @type {number} */ size) {
  const events = entry.open.splice(0, size).map((span) => ({ ...span, end: Date.now() }));
  const resent = events.length;
  while (events.length < size) {
    const span = newSpan(entry.agent);
    if (span.end === null) entry.open.push(span);
    events.push(span);
  }
  return { body: JSON.stringify({ events }), spans: events.length, extended: resent };
}

/** @param {{ seconds: number, resendEvery: number, spans: number }} task */
async function run(task) {
  let frames = 0;
  let spans = 0;
  let extended = 0;
  let resentSpans = 0;
  /** @type {number[]} */
  const latencies = [];
  const started = performance.now();
  const deadline = started + task.seconds * 1000;
  const progress = setInterval(() => send({ type: 'progress', spans }), 1000);

  /** Sends `body` and waits for its receipt. */
  const exchange = (/** @type {Entry} */ entry, /** @type {string} */ body) =>
    new Promise((resolve) => {
      const receipt = `r-${entry.connection.nextId++}`;
      entry.settle = () => resolve(undefined);
      entry.connection.receipts.set(receipt, () => {
        entry.settle = null;
        resolve(undefined);
      });
      entry.connection.send('/agent/activity', body, { receipt });
    });

  await Promise.all(
    entries.map(async (entry) => {
      let count = 0;
      while (performance.now() < deadline && !entry.connection.closed) {
        count += 1;
        const made = frame(entry, task.spans);
        const times = task.resendEvery > 0 && count % task.resendEvery === 0 ? 2 : 1;
        for (let n = 0; n < times; n += 1) {
          const begun = performance.now();
          await exchange(entry, made.body);
          latencies.push(performance.now() - begun);
          frames += 1;
          spans += made.spans;
          if (n === 0) extended += made.extended;
          else resentSpans += made.spans;
        }
      }
    }),
  );
  clearInterval(progress);
  /** @type {Record<string, number>} */
  const refused = {};
  for (const entry of entries)
    for (const [key, n] of Object.entries(entry.refused)) refused[key] = (refused[key] ?? 0) + n;
  latencies.sort((a, b) => a - b);
  send({
    type: 'done',
    frames,
    spans,
    extended,
    resentSpans,
    refused,
    seconds: (performance.now() - started) / 1000,
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
