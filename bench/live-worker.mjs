// @ts-check
// A client process of the live-channel benchmarks, forked by them (`fork('bench/live-worker.mjs')`)
// and told what to be over IPC, so that the clients' CPU is not the benchmark's own event loop:
//
// - `agents`: connects simulated agents (CONNECT with the agent headers of docs/live-channel.md,
//   SUBSCRIBE /user/queue/workflows and /user/queue/commands, heart-beats every 10 s), `pool` at a
//   time; then on `emit`, each sends an `/agent/queue` change every `everyMs`, staggered over the
//   interval by its place among all the agents, with the time it was sent in the entry's name.
// - `console`: one console (or any subscriber) that measures, for each message on `latencyTopic`,
//   the time since the one carried in it.
// - `subscribers`: `count` connections subscribed to one destination (Opsdeck's consoles on
//   `/topic/queue/{t}`, or RabbitMQ's `/topic/bench`), counting deliveries and the lowest sequence
//   number every connection has reached, which the fan-out publisher paces itself on.
//
// Reports go back as IPC messages; `stop` closes everything and exits.
import { agentConnectHeaders, connectStomp, pool } from './live-stomp.mjs';

/** @type {import('./live-stomp.mjs').StompConnection[]} */
const connections = [];
const send = (/** @type {any} */ message) => process.send?.(message);

/** Finds `"name":"bench <seq> <sentAt>"` in a queue change without parsing the whole body. */
const MARK = Buffer.from('bench ');
/** @param {Buffer} body */
function stamp(body) {
  const at = body.indexOf(MARK);
  if (at < 0) return undefined;
  const end = body.indexOf(0x22, at); // the closing quote
  const [, seq, sentAt] = body.toString('latin1', at, end).split(' ');
  return { seq: Number(seq), sentAt: Number(sentAt) };
}

// ----- agents ------------------------------------------------------------------------------------

/**
 * @typedef {{ key: string, mac: string, index: number, company: number }} Agent
 * @type {{ agent: Agent, connection: import('./live-stomp.mjs').StompConnection, workflowId: number }[]}
 */
const agents = [];
let dropped = 0;
/** @type {Record<string, number>} */
const errors = {};
let workflowMessages = 0;

/**
 * @param {{ url: string, secret: string, agents: Agent[], concurrency: number }} task
 */
async function connectAgents(task) {
  const started = performance.now();
  let connected = 0;
  /** @type {number[]} */
  const took = [];
  const progress = setInterval(() => send({ type: 'progress', connected, failed: result?.failed ?? 0 }), 1000);
  /** @type {{ failed: number, reasons: Record<string, number> } | undefined} */
  let result;
  result = await pool(task.agents.length, task.concurrency, async (i) => {
    const agent = /** @type {Agent} */ (task.agents[i]);
    const entry = { agent, connection: /** @type {any} */ (undefined), workflowId: 1 };
    const begun = performance.now();
    entry.connection = await connectStomp(task.url, agentConnectHeaders(task.secret, agent), {
      onMessage: (destination, body) => {
        if (destination !== '/user/queue/workflows') return;
        workflowMessages += 1;
        // The first workflow it may run: its queue entries name it.
        const match = /"id":(\d+)/.exec(body.toString('latin1', 0, Math.min(body.length, 200)));
        if (match) entry.workflowId = Number(match[1]);
      },
      onError: (key) => {
        errors[key] = (errors[key] ?? 0) + 1;
      },
      onClose: () => {
        dropped += 1;
      },
    });
    took.push(performance.now() - begun);
    entry.connection.subscribe('/user/queue/workflows');
    entry.connection.subscribe('/user/queue/commands');
    connections.push(entry.connection);
    agents.push(entry);
    connected += 1;
  });
  clearInterval(progress);
  took.sort((a, b) => a - b);
  send({
    type: 'connected',
    connected,
    failed: result.failed,
    reasons: result.reasons,
    seconds: (performance.now() - started) / 1000,
    took: [took[Math.floor(took.length / 2)] ?? 0, took[Math.floor(took.length * 0.99)] ?? 0],
  });
}

/**
 * Each agent sends one `/agent/queue` change every `everyMs`, at its own phase of the interval
 * (`index / total`), for `seconds`: the entry (always id 1, so the server's copy of the queue stays
 * one entry long) carries the send time in its name and in `executionStart`.
 * @param {{ everyMs: number, seconds: number, total: number }} task
 */
function emit(task) {
  const phased = agents
    .map((entry) => ({ entry, phase: (entry.agent.index / task.total) * task.everyMs }))
    .sort((a, b) => a.phase - b.phase);
  const start = Date.now();
  let sent = 0;
  let position = 0;
  let lastCycle = 0;
  const fire = (/** @type {(typeof phased)[number]} */ item, /** @type {number} */ seq) => {
    const now = Date.now();
    const body = JSON.stringify({
      added: [],
      updated: [
        {
          id: 1,
          workflowId: item.entry.workflowId,
          name: `bench ${seq} ${now}`,
          status: 'EXECUTING',
          position: 0,
          executionStart: now,
        },
      ],
      removed: [],
    });
    if (item.entry.connection.send('/agent/queue', body)) sent += 1;
  };
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Date.now() - start;
      if (elapsed >= task.seconds * 1000) {
        clearInterval(timer);
        resolve(undefined);
        send({ type: 'emitted', sent });
        return;
      }
      const cycle = Math.floor(elapsed / task.everyMs);
      const at = elapsed % task.everyMs;
      if (cycle !== lastCycle) {
        // The rest of the previous cycle, then this one from its start.
        while (position < phased.length) fire(/** @type {any} */ (phased[position++]), lastCycle);
        position = 0;
        lastCycle = cycle;
      }
      while (position < phased.length && /** @type {any} */ (phased[position]).phase <= at) {
        fire(/** @type {any} */ (phased[position++]), cycle);
      }
    }, 5);
  });
}

// ----- a console measuring latency ---------------------------------------------------------------

/** @type {number[]} */
const latencies = [];
/** @type {Record<string, { messages: number, bytes: number }>} */
const byDestination = {};

/**
 * @param {{ url: string, headers: Record<string, string>, subscriptions: string[], latencyTopic: string }} task
 */
async function connectConsole(task) {
  const connection = await connectStomp(task.url, task.headers, {
    onMessage: (destination, body) => {
      const now = Date.now();
      if (!byDestination[destination]) byDestination[destination] = { messages: 0, bytes: 0 };
      const seen = byDestination[destination];
      seen.messages += 1;
      seen.bytes += body.length;
      if (destination !== task.latencyTopic) return;
      const mark = stamp(body);
      if (mark) latencies.push(now - mark.sentAt);
    },
    onError: (key) => {
      errors[key] = (errors[key] ?? 0) + 1;
    },
    onClose: () => {
      dropped += 1;
    },
  });
  connections.push(connection);
  for (const destination of task.subscriptions) connection.subscribe(destination);
  send({ type: 'console-ready' });
}

// ----- fan-out subscribers -----------------------------------------------------------------------

let delivered = 0;
/** The last sequence number each subscriber received. */
let lastSeq = new Int32Array(0);

/**
 * @param {{ url: string, headers: Record<string, string>, count: number, destination: string, concurrency: number }} task
 */
async function connectSubscribers(task) {
  lastSeq = new Int32Array(task.count).fill(-1);
  const started = performance.now();
  const result = await pool(task.count, task.concurrency, async (i) => {
    const connection = await connectStomp(task.url, task.headers, {
      onMessage: (_destination, body) => {
        delivered += 1;
        const mark = stamp(body);
        if (mark && mark.seq > /** @type {number} */ (lastSeq[i])) lastSeq[i] = mark.seq;
      },
      onError: (key) => {
        errors[key] = (errors[key] ?? 0) + 1;
      },
      onClose: () => {
        dropped += 1;
        // Gone: the publisher paces on the others.
        lastSeq[i] = 0x7fffffff;
      },
    });
    connections.push(connection);
    await new Promise((resolve, reject) => {
      // A receipt on the SUBSCRIBE: ready only when the broker has it.
      const id = `ready-${i}`;
      const timer = setTimeout(() => reject(new Error('no RECEIPT for SUBSCRIBE within 30 s')), 30_000);
      connection.receipts.set(id, () => {
        clearTimeout(timer);
        resolve(undefined);
      });
      connection.subscribe(task.destination, { receipt: id });
    });
  });
  send({
    type: 'subscribed',
    failed: result.failed,
    reasons: result.reasons,
    seconds: (performance.now() - started) / 1000,
  });
  setInterval(() => {
    let min = Number.MAX_SAFE_INTEGER;
    for (const seq of lastSeq) if (seq < min) min = seq;
    send({ type: 'fanout', delivered, minSeq: lastSeq.length ? min : -1, dropped });
  }, 20).unref();
}

// ----- IPC ---------------------------------------------------------------------------------------

process.on('message', async (/** @type {any} */ task) => {
  try {
    switch (task.type) {
      case 'agents':
        return await connectAgents(task);
      case 'emit':
        return await emit(task);
      case 'console':
        return await connectConsole(task);
      case 'subscribers':
        return await connectSubscribers(task);
      case 'report':
        return send({
          type: 'report',
          latencies,
          byDestination,
          dropped,
          errors,
          workflowMessages,
          delivered,
          open: connections.filter((connection) => !connection.closed).length,
        });
      case 'stop':
        for (const connection of connections) connection.terminate();
        process.exit(0);
    }
  } catch (error) {
    send({ type: 'failed', message: /** @type {Error} */ (error).message });
  }
});
// The benchmark gone: so are we.
process.on('disconnect', () => process.exit(0));
