import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { Activity } from '@opsdeck/contract/activity';
import {
  AGENT_APP_KEY,
  AgentCommand,
  type AgentWorkflow,
  agentWorkflowFilePath,
  CONNECT_HEADERS,
  DEMO_AGENT_SECRET,
  DESTINATIONS,
  type ExecutionReport,
  LIVE_PATH,
  type LiveRefusal,
  type QueuedWorkflow,
  WorkflowChanges,
} from '@opsdeck/contract/live';
import type { RaxStep } from '@opsdeck/rax/format';
import { readRax } from '@opsdeck/rax/read';
import { Client, type IMessage } from '@stomp/stompjs';
import WebSocket from 'ws';
import { ActivityReporter } from './activity-reporter';
import { reconnectDelay } from './backoff';
import { maskKey } from './license-file';
import { AgentQueue, type QueueDiff } from './queue';
import { ReportOutbox } from './report-outbox';
import { type RunOutcome, realSleep, runSteps, type Sleep, stepLabel, TERMINATED_MESSAGE } from './runner';
import { type PlannedSpan, planWorkdays, type Workdays } from './workday';

export type AgentLogLevel = 'debug' | 'info' | 'warn';
export type AgentLog = (level: AgentLogLevel, message: string) => void;

export interface AgentOptions {
  /** The server's HTTP base; the live channel is its ws:// (or wss://) twin at /api/live. Default http://localhost:8080. */
  url?: string;
  /** The full licence key (never logged: logs show its last four characters). */
  licenseKey: string;
  macAddress: string;
  /** Default: this machine's. */
  hostname?: string;
  /** Default AGENT_APP_KEY. */
  appKey?: string;
  /** The installation's agent secret. Default AGENT_SECRET from the environment, else DEMO_AGENT_SECRET. */
  secret?: string;
  /** Steps take expectedSeconds / speed. Default 1. */
  speed?: number;
  /** The chance a run fails at one of its steps. Default 0.1. */
  failureRate?: number;
  /** Runs the agent starts of its own each hour, at random times (a Poisson process). Default 3; 0: none. */
  selfStartPerHour?: number;
  /** When set, the first run of its own starts within this many seconds of the start (the demo fleet). */
  firstSelfStartWithinSeconds?: number;
  /** Queues at least this long get no run of the agent's own. Default 3. */
  selfStartMaxQueue?: number;
  log?: AgentLog;
  /** Injected in tests: numbers in [0, 1). */
  random?: () => number;
  sleep?: Sleep;
  now?: () => number;
  /** A CONNECT not answered within this many ms is given up and retried. Default 15000. */
  connectTimeoutMs?: number;
  /**
   * The person's working days to act out (docs/monitor.md, "The simulator and the demo"): their
   * spans go to `/agent/activity` as their times come. Later plans through `setWorkdays`.
   */
  workdays?: Workdays;
  /** Spans of a plan that started before the agent did are sent if at most this old (default a day). */
  activityCatchUpMs?: number;
  /** The back-off between sends of a report the server refused for now (default 1 s doubling to 30 s). */
  reportRetry?: { firstMs: number; maxMs: number };
}

/** What the agent tells listeners (tests, benches, the fleet). */
export interface AgentEvents {
  connected: [];
  /** The socket closed; the agent tries again after `retryInMs` unless stopped. */
  disconnected: [{ refusal: string | null; retryInMs: number | null }];
  /** A CONNECT refused with an ERROR frame: its `message` header, an error key. */
  refused: [key: string];
  workflows: [workflows: AgentWorkflow[]];
  queue: [diff: QueueDiff];
  runStarted: [entry: QueuedWorkflow];
  step: [entry: QueuedWorkflow, step: RaxStep, index: number];
  execution: [report: ExecutionReport];
  /** The server receipted an execution report. */
  receipted: [reportId: string];
  /** A refused SEND or SUBSCRIBE, from `/user/topic/errors`. */
  refusal: [refusal: LiveRefusal];
  /** A frame of activity spans was sent (open ones with end null). */
  activity: [events: Activity[]];
}

/** The agent's state, for tests and the fleet's summary. */
export interface AgentSnapshot {
  connected: boolean;
  workflows: AgentWorkflow[];
  queue: QueuedWorkflow[];
  pendingReports: number;
  /** Activity spans started and not ended, and spans whose latest word the server has not receipted. */
  openSpans: number;
  pendingSpans: number;
  lastRefusal: string | null;
}

/** A connection that held this long resets the back-off, so flapping does not reconnect every second. */
const STABLE_CONNECTION_MS = 30_000;
const HEART_BEAT_MS = 10_000;
/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const liveUrl = (httpUrl: string) => {
  const url = new URL(LIVE_PATH, httpUrl.endsWith('/') ? httpUrl : `${httpUrl}/`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
};

/**
 * A simulated agent: a real client of the live channel (docs/live-channel.md, "Agents"). It
 * connects with its licence key, keeps the workflows the server says it may run, queues and runs
 * them one at a time when told (or of its own, a few times an hour), walks each workflow's steps
 * for their expected time, fails now and then with a fitting error, reports every run with a
 * receipt, and reconnects with back-off. `start()` connects; `stop()` ends it all.
 */
export class SimulatedAgent extends EventEmitter<AgentEvents> {
  readonly url: string;
  readonly wsUrl: string;
  readonly hostname: string;
  readonly label: string;
  private readonly options: Required<
    Pick<AgentOptions, 'appKey' | 'secret' | 'speed' | 'failureRate' | 'selfStartPerHour' | 'selfStartMaxQueue'>
  > &
    AgentOptions;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly queue: AgentQueue;
  private readonly workflows = new Map<number, AgentWorkflow>();
  private readonly files = new Map<number, RaxStep[]>();
  private readonly reports: ReportOutbox;
  private readonly activity: ActivityReporter;
  private client: Client | undefined;
  private connectedAt: number | null = null;
  private attempt = 0;
  private refusal: string | null = null;
  private lastRefusal: string | null = null;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private selfStartTimer: NodeJS.Timeout | undefined;
  private current: { entryId: number; controller: AbortController } | undefined;
  private started = false;
  private stopped = false;

  constructor(options: AgentOptions) {
    super();
    const speed = options.speed ?? 1;
    const failureRate = options.failureRate ?? 0.1;
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError('speed must be a number greater than 0');
    if (!(failureRate >= 0 && failureRate <= 1)) throw new RangeError('failureRate must be between 0 and 1');
    if (!options.licenseKey) throw new RangeError('a licence key is required');
    if (!options.macAddress) throw new RangeError('a MAC address is required');
    this.options = {
      ...options,
      appKey: options.appKey ?? AGENT_APP_KEY,
      secret: options.secret ?? process.env.AGENT_SECRET ?? DEMO_AGENT_SECRET,
      speed,
      failureRate,
      selfStartPerHour: options.selfStartPerHour ?? 3,
      selfStartMaxQueue: options.selfStartMaxQueue ?? 3,
    };
    this.url = (options.url ?? 'http://localhost:8080').replace(/\/+$/, '');
    this.wsUrl = liveUrl(this.url);
    this.hostname = options.hostname ?? os.hostname();
    this.label = `${this.hostname} ${maskKey(options.licenseKey)}`;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
    this.queue = new AgentQueue(this.now);
    this.reports = new ReportOutbox(
      { send: (report, onReceipt) => this.sendReport(report, onReceipt) },
      {
        random: this.random,
        retry: options.reportRetry,
        log: (level, message) => this.log(level, message),
        onReceipted: (reportId) => {
          this.log('debug', `execution report ${reportId} receipted`);
          this.emit('receipted', reportId);
        },
      },
    );
    this.activity = new ActivityReporter(
      { send: (events, onReceipt) => this.sendActivity(events, onReceipt) },
      {
        now: this.now,
        catchUpMs: options.activityCatchUpMs,
        random: this.random,
        log: (message) => this.log('warn', message),
      },
    );
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  snapshot(): AgentSnapshot {
    return {
      connected: this.connected,
      workflows: [...this.workflows.values()].map((workflow) => ({ ...workflow })),
      queue: this.queue.list(),
      pendingReports: this.reports.size,
      openSpans: this.activity.openSpans,
      pendingSpans: this.activity.pendingSpans,
      lastRefusal: this.lastRefusal,
    };
  }

  /** Connects (and keeps reconnecting) and starts the runs of its own. */
  start(): this {
    if (this.started) return this;
    this.started = true;
    if (this.options.workdays) this.setWorkdays(this.options.workdays);
    this.connect();
    const first = this.options.firstSelfStartWithinSeconds;
    this.scheduleSelfStart(first !== undefined ? this.random() * first * 1000 : undefined);
    return this;
  }

  /** Resolves at the next CONNECTED (at once when connected). */
  whenConnected(): Promise<void> {
    if (this.connected) return Promise.resolve();
    return new Promise((resolve) => this.once('connected', () => resolve()));
  }

  /**
   * The person's working days to act out from now on (a new plan replaces the spans not started
   * yet; those started go on). Answers how many spans the plan has.
   */
  setWorkdays(workdays: Workdays): number {
    return this.setActivityPlan(planWorkdays(workdays));
  }

  /** The same with spans planned elsewhere. */
  setActivityPlan(spans: PlannedSpan[]): number {
    this.activity.setPlan(spans);
    return spans.length;
  }

  /** Stops everything: the connection, its retries, the running step; the run in progress is not reported. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.activity.stop();
    this.reports.stop();
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.selfStartTimer);
    this.current?.controller.abort('Agent stopped');
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A polite DISCONNECT, but never waiting long on a server that does not answer it.
    const polite = client.deactivate();
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 2_000).unref());
    if ((await Promise.race([polite, timer])) === 'late') await client.deactivate({ force: true });
  }

  /** Queues a run of a workflow, as an execute command does. */
  execute(workflowId: number): QueuedWorkflow {
    const name = this.workflows.get(workflowId)?.name ?? `Workflow ${workflowId}`;
    const { entry, diff } = this.queue.enqueue(workflowId, name);
    this.log('info', `queued "${name}" (#${workflowId}) as entry ${entry.id} at position ${entry.position}`);
    this.publishQueue(diff);
    this.pump();
    return entry;
  }

  /**
   * As a terminate command does: a running entry is stopped at once (its run ends 'unknown',
   * "Terminated from the console"), a queued one is unqueued (no run, no report). False when the
   * entry is not in the queue (or is not of that workflow).
   */
  terminate(queueId: number, workflowId?: number): boolean {
    const entry = this.queue.find(queueId);
    if (!entry || (workflowId !== undefined && entry.workflowId !== workflowId)) {
      this.log('warn', `terminate: no entry ${queueId}${workflowId ? ` of workflow #${workflowId}` : ''} in the queue`);
      return false;
    }
    if (entry.status === 'EXECUTING' && this.current?.entryId === queueId) {
      this.log('info', `terminating "${entry.name}" (entry ${queueId})`);
      this.current.controller.abort(TERMINATED_MESSAGE);
      return true;
    }
    const removed = this.queue.remove(queueId);
    if (removed) {
      this.log('info', `unqueued "${entry.name}" (entry ${queueId})`);
      this.publishQueue(removed.diff);
    }
    return true;
  }

  // ── connection ────────────────────────────────────────────────────────────────────────────

  private connectHeaders(): Record<string, string> {
    return {
      [CONNECT_HEADERS.appKey]: this.options.appKey,
      [CONNECT_HEADERS.secret]: this.options.secret,
      [CONNECT_HEADERS.licenseKey]: this.options.licenseKey,
      [CONNECT_HEADERS.macAddress]: this.options.macAddress,
      [CONNECT_HEADERS.hostname]: this.hostname,
    };
  }

  /** One Client per attempt: retries are ours (back-off by refusal), not stompjs's fixed delay. */
  private connect() {
    if (this.stopped) return;
    this.refusal = null;
    const client: Client = new Client({
      webSocketFactory: () => new WebSocket(this.wsUrl, ['v12.stomp']),
      connectHeaders: { ...this.connectHeaders(), [CONNECT_HEADERS.platform]: 'agent' },
      heartbeatIncoming: HEART_BEAT_MS,
      heartbeatOutgoing: HEART_BEAT_MS,
      reconnectDelay: 0,
      connectionTimeout: this.options.connectTimeoutMs ?? 15_000,
      debug: () => {},
      onConnect: () => this.onConnected(client),
      onStompError: (frame) => {
        const key = frame.headers.message ?? 'ERROR';
        this.refusal = key;
        this.lastRefusal = key;
        this.log('warn', `refused: ${key}`);
        this.emit('refused', key);
      },
      onWebSocketClose: () => this.onClosed(client),
    });
    this.client = client;
    client.activate();
  }

  private onConnected(client: Client) {
    if (client !== this.client) return;
    this.connectedAt = this.now();
    this.lastRefusal = null;
    this.log('info', `connected to ${this.wsUrl}`);
    // The server sends the whole list again after a connect: start from it, and forget cached
    // files, which may have changed while we were away.
    this.workflows.clear();
    this.files.clear();
    client.subscribe(DESTINATIONS.agentWorkflows, (message) => this.onWorkflows(message));
    client.subscribe(DESTINATIONS.agentCommands, (message) => this.onCommand(message));
    client.subscribe(DESTINATIONS.errors, (message) => this.onRefusal(message));
    // A new session knows nothing of our queue: tell it all, then the reports it has not receipted.
    if (this.queue.size > 0) this.publishQueue(this.queue.announce());
    this.reports.onConnected();
    // Activity not receipted yet, and every span still open (the server ended them when we went).
    this.activity.onConnected();
    this.emit('connected');
  }

  private onClosed(client: Client) {
    if (client !== this.client) return;
    this.client = undefined;
    void client.deactivate();
    this.reports.onDisconnected();
    const wasConnected = this.connectedAt !== null;
    if (wasConnected && this.now() - this.connectedAt! >= STABLE_CONNECTION_MS) this.attempt = 0;
    this.connectedAt = null;
    if (this.stopped) {
      this.emit('disconnected', { refusal: this.refusal, retryInMs: null });
      return;
    }
    const delay = reconnectDelay(this.attempt, this.refusal, this.random);
    this.attempt += 1;
    this.log(
      wasConnected || this.refusal ? 'warn' : this.attempt === 1 ? 'info' : 'debug',
      `${wasConnected ? 'disconnected' : 'could not connect'}${this.refusal ? ` (${this.refusal})` : ''}; retrying in ${(delay / 1000).toFixed(1)} s`,
    );
    this.emit('disconnected', { refusal: this.refusal, retryInMs: delay });
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private publish(destination: string, body: unknown, headers: Record<string, string> = {}): boolean {
    const client = this.client;
    if (!client?.connected) return false;
    client.publish({
      destination,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
    return true;
  }

  private publishQueue(diff: QueueDiff) {
    this.emit('queue', diff);
    this.publish(DESTINATIONS.agentQueue, diff);
  }

  // ── what the server sends ───────────────────────────────────────────────────────────────

  private parse(message: IMessage): unknown {
    try {
      return JSON.parse(message.body);
    } catch {
      this.log('warn', `ignored a message that is not JSON on ${message.headers.destination ?? '?'}`);
      return undefined;
    }
  }

  private onWorkflows(message: IMessage) {
    const parsed = WorkflowChanges.safeParse(this.parse(message));
    if (!parsed.success) return this.log('warn', 'ignored a malformed workflow list');
    const { added, updated, removed } = parsed.data;
    for (const workflow of [...added, ...updated]) {
      this.workflows.set(workflow.id, workflow);
      this.files.delete(workflow.id);
      const renamed = this.queue.rename(workflow.id, workflow.name);
      if (renamed.updated.length > 0) this.publishQueue(renamed);
    }
    for (const id of removed) {
      this.workflows.delete(id);
      this.files.delete(id);
    }
    this.log(
      'debug',
      `workflows: +${added.length} ~${updated.length} -${removed.length} (${this.workflows.size} in all)`,
    );
    this.emit('workflows', [...this.workflows.values()]);
  }

  private onCommand(message: IMessage) {
    const parsed = AgentCommand.safeParse(this.parse(message));
    if (!parsed.success) return this.log('warn', 'ignored a malformed command');
    const command = parsed.data;
    if (command.command === 'execute') this.execute(command.workflowId);
    else this.terminate(command.queueId, command.workflowId);
  }

  private onRefusal(message: IMessage) {
    const body = this.parse(message) as (Partial<LiveRefusal> & { id?: unknown }) | undefined;
    const refusal: LiveRefusal = {
      destination: String(body?.destination ?? '?'),
      key: String(body?.key ?? '?'),
      message: String(body?.message ?? ''),
    };
    this.log('warn', `server refused ${refusal.destination}: ${refusal.key}`);
    if (refusal.destination === DESTINATIONS.agentExecution) this.reports.onRefusal(refusal.key);
    // A refusal naming a span is about that span alone; without one, about the whole frame.
    if (refusal.destination === DESTINATIONS.agentActivity && body?.id === undefined)
      this.activity.onRefusal(refusal.key);
    this.emit('refusal', refusal);
  }

  // ── runs ───────────────────────────────────────────────────────────────────────────────

  /** Starts the next entry when nothing runs. */
  private pump() {
    if (this.current || this.stopped) return;
    const next = this.queue.startNext();
    if (!next) return;
    this.publishQueue(next.diff);
    const controller = new AbortController();
    this.current = { entryId: next.entry.id, controller };
    void this.run(next.entry, controller.signal).finally(() => {
      this.current = undefined;
      const removed = this.queue.remove(next.entry.id);
      if (removed && !this.stopped) this.publishQueue(removed.diff);
      this.pump();
    });
  }

  private async run(entry: QueuedWorkflow, signal: AbortSignal) {
    this.log('info', `running "${entry.name}" (entry ${entry.id})`);
    this.emit('runStarted', entry);
    const executionStart = entry.executionStart ?? this.now();
    let outcome: RunOutcome;
    try {
      const steps = await this.stepsOf(entry.workflowId, signal);
      outcome = await runSteps(steps, {
        speed: this.options.speed,
        failureRate: this.options.failureRate,
        random: this.random,
        sleep: this.sleep,
        signal,
        onStep: (step, index) => {
          this.log('debug', `"${entry.name}" step ${index + 1}/${steps.length}: ${stepLabel(step)}`);
          this.emit('step', entry, step, index);
        },
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      outcome = signal.aborted
        ? { statusType: 'unknown', errorMessage: String(signal.reason ?? TERMINATED_MESSAGE), errorActivity: null }
        : { statusType: 'faulted', errorMessage: `Could not load the workflow file: ${reason}`, errorActivity: null };
    }
    if (this.stopped) return;
    const executionEnd = Math.max(this.now(), executionStart);
    const report: ExecutionReport = {
      id: randomUUID(),
      workflowId: entry.workflowId,
      executionStart,
      executionEnd,
      statusType: outcome.statusType,
      errorMessage: outcome.errorMessage?.slice(0, 1024) ?? null,
      errorActivity: outcome.errorActivity?.slice(0, 255) ?? null,
    };
    const seconds = ((executionEnd - executionStart) / 1000).toFixed(1);
    this.log(
      outcome.statusType === 'success' ? 'info' : 'warn',
      `"${entry.name}" ended ${outcome.statusType} after ${seconds} s${outcome.errorMessage ? `: ${outcome.errorActivity ?? '-'}: ${outcome.errorMessage}` : ''}`,
    );
    this.reports.add(report);
    this.emit('execution', report);

    const known = this.workflows.get(entry.workflowId);
    const workflow: AgentWorkflow = {
      id: entry.workflowId,
      name: known?.name ?? entry.name,
      lastExecution: executionEnd,
    };
    if (known) this.workflows.set(workflow.id, workflow);
    this.publish(DESTINATIONS.agentWorkflowUpdates, { updated: [workflow] });
  }

  /** One report asking for a receipt (the outbox keeps it, and sends it again, until that comes). */
  private sendReport(report: ExecutionReport, onReceipt: () => void): boolean {
    const client = this.client;
    if (!client?.connected) return false;
    const receipt = `execution-${report.id}`;
    client.watchForReceipt(receipt, onReceipt);
    return this.publish(DESTINATIONS.agentExecution, report, { receipt });
  }

  /** One frame of activity spans with a receipt (the reporter keeps them pending until it comes). */
  private sendActivity(events: Activity[], onReceipt: () => void): boolean {
    const client = this.client;
    if (!client?.connected) return false;
    const receipt = `activity-${randomUUID()}`;
    client.watchForReceipt(receipt, onReceipt);
    this.publish(DESTINATIONS.agentActivity, { events }, { receipt });
    this.emit('activity', events);
    return true;
  }

  private async stepsOf(workflowId: number, signal: AbortSignal): Promise<RaxStep[]> {
    const cached = this.files.get(workflowId);
    if (cached) return cached;
    const response = await fetch(`${this.url}${agentWorkflowFilePath(workflowId)}`, {
      headers: this.connectHeaders(),
      signal,
    });
    if (!response.ok) {
      // A body that is not JSON (a proxy's error page) has no key: the status tells what failed.
      const body = (await response.json().catch(() => null)) as { key?: unknown } | null;
      throw new Error(typeof body?.key === 'string' ? body.key : `HTTP ${response.status}`);
    }
    const contents = await readRax(new Uint8Array(await response.arrayBuffer()));
    const steps = contents.manifest.steps;
    // Cache only while the workflow is still listed: an update or removal drops it.
    if (this.workflows.has(workflowId)) this.files.set(workflowId, steps);
    return steps;
  }

  // ── runs of its own ─────────────────────────────────────────────────────────────────────

  private scheduleSelfStart(delayMs?: number) {
    const perHour = this.options.selfStartPerHour;
    if (this.stopped || !(perHour > 0)) return;
    // Exponential gaps: a Poisson process of `perHour` runs an hour, at random times.
    const delay = Math.min(MAX_TIMER_MS, delayMs ?? (-Math.log(1 - this.random()) * 3_600_000) / perHour);
    this.selfStartTimer = setTimeout(() => {
      this.selfStart();
      this.scheduleSelfStart();
    }, delay);
  }

  private selfStart() {
    if (!this.connected || this.queue.size >= this.options.selfStartMaxQueue) return;
    const workflows = [...this.workflows.values()];
    const pick = workflows[Math.floor(this.random() * workflows.length)];
    if (!pick) return;
    this.log('info', `starts "${pick.name}" of its own`);
    this.execute(pick.id);
  }

  private log(level: AgentLogLevel, message: string) {
    this.options.log?.(level, `[${this.label}] ${message}`);
  }
}

/** Makes an agent and starts it. */
export function startAgent(options: AgentOptions): SimulatedAgent {
  return new SimulatedAgent(options).start();
}
