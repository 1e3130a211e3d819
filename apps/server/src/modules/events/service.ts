import type { IncomingMessage } from 'node:http';
import { ActivityFrame } from '@opsdeck/contract/activity';
import type { Authority } from '@opsdeck/contract/authorities';
import { ERROR_MESSAGES, type ErrorKey } from '@opsdeck/contract/errors';
import {
  type AgentCommand,
  type AgentConnection,
  type AgentWorkflow,
  CONNECT_HEADERS,
  DESTINATIONS,
  ExecuteCommand,
  ExecutionReport,
  MAX_LIST_ITEMS,
  type QueueChanges,
  QueueChanges as QueueChangesSchema,
  TENANT_TOPICS,
  type TenantTopic,
  TerminateCommand,
  tenantTopic,
  type WorkflowChanges,
  WorkflowUpdates,
} from '@opsdeck/contract/live';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { type AccessControlOptions, authenticateHeaders, type RequestAuth } from '../../platform/access';
import { isDatabaseUnavailable } from '../../platform/database-errors';
import { AppError } from '../../platform/errors';
import type { DomainEvent, EventBus } from '../../platform/events';
import { isRedisUnavailable } from '../../platform/redis';
import { type StompHandlers, StompRefusal, type StompSession } from '../../platform/stomp/server';
import type { ActivityService } from '../activity/service';
import { lastExecutions } from '../execution-logs/queries';
import type { ExecutingAgent, ExecutionLogsService } from '../execution-logs/service';
import { findWorkflow } from '../workflows/queries';
import { type AgentIdentity, identifyAgent, keyRefusal } from './agent-keys';
import type { Backplane, BackplaneMessage, PresenceEntry } from './backplane';
import { findAgentKey, runnableWorkflows } from './queries';

/** What one live connection is: a console (a signed-in user) or an agent (a licence key on a machine). */
type ConsoleContext = {
  readonly kind: 'console';
  auth: RequestAuth;
  /** What it connected with, to check again when sessions, users or roles change. */
  readonly credentials: { appKey: string | undefined; token: string; tenantId: string | undefined };
};
type AgentContext = {
  readonly kind: 'agent';
  readonly identity: AgentIdentity;
  /** Read before CONNECTED is sent, so that the agent is listed the moment it is told it is connected. */
  readonly workflows: AgentWorkflow[];
};
export type LiveContext = ConsoleContext | AgentContext;
type LiveSession = StompSession<LiveContext>;

/** Executions and queued runs are stored by the execution-logs area; the channel only hands them over. */
export type ExecutionRecorder = Pick<ExecutionLogsService, 'record' | 'recordQueue'>;

/** The agent as the execution logs name it: its key, its tenant and its machine. */
const executingAgent = (identity: AgentIdentity): ExecutingAgent => ({
  accountId: identity.key.accountId,
  tenantId: identity.key.tenantId,
  macAddress: identity.macAddress,
  hostname: identity.hostname,
});

export type EventsServiceOptions = {
  db: Executor;
  events: EventBus;
  backplane: Backplane;
  executions: ExecutionRecorder;
  /** Activity spans (`/agent/activity`, modules/activity); without it the destination is unknown. */
  activity?: Pick<ActivityService, 'record' | 'agentGone'>;
  access: Pick<AccessControlOptions, 'appKeys' | 'resolveCaller' | 'resolveTenant'>;
  agentSecret: string | undefined;
  log: FastifyBaseLogger;
  /** How often licences are checked for expiry (ms). */
  expiryCheckMs?: number;
  /** The whole-list topic is sent at most this often per console (ms): 10,000 agents connecting must not send 10,000 lists. */
  activeAgentsEveryMs?: number;
};

const refuse = (key: ErrorKey | string, message?: string) => new StompRefusal(key, message);

/**
 * The API's failures as the channel's refusals: an AppError keeps its key, a database or Redis
 * that is away is ERROR_SERVICE_UNAVAILABLE; anything else stays an internal error (logged by the transport).
 */
function asRefusal(error: unknown): unknown {
  if (error instanceof AppError) return refuse(error.key);
  if (isDatabaseUnavailable(error) || isRedisUnavailable(error)) return refuse('ERROR_SERVICE_UNAVAILABLE');
  return error;
}

async function refusing<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asRefusal(error);
  }
}

function parse<T extends z.ZodType>(schema: T, body: Buffer): z.infer<T> {
  let json: unknown;
  try {
    json = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch {
    throw refuse('ERROR_GENERAL_INVALID_INPUT');
  }
  const result = schema.safeParse(json);
  if (!result.success) throw refuse('ERROR_GENERAL_INVALID_INPUT');
  return result.data;
}

const COMMAND_AUTHORITIES: readonly Authority[] = ['VIEW_WORKFLOW_EVENTS', 'VIEW_WORKFLOW'];

/**
 * The live channel's rules (LIVE.md): who may connect, subscribe and send what; the presence of
 * every agent (of every instance, through the backplane); relaying agents' changes to the consoles
 * of their tenant, consoles' commands to agents; and disconnecting agents whose key or licence
 * stops being valid. The STOMP transport (platform/stomp) knows none of this.
 */
export function createEventsService(options: EventsServiceOptions) {
  const { db, backplane, log } = options;
  /** Every agent of every instance, by session id. */
  const presence = new Map<string, PresenceEntry>();
  /** The session id holding each key (one live session per key). */
  const sessionOfKey = new Map<string, string>();
  /** This instance's sockets. */
  const localAgents = new Map<string, LiveSession>();
  const consoles = new Set<LiveSession>();
  const pendingLists = new Set<LiveSession>();
  let listTimer: NodeJS.Timeout | undefined;

  // ----- consoles: scope and fan-out --------------------------------------------------------

  /** The tenant a console watches; null: an admin watching every company. */
  const tenantOf = (context: ConsoleContext) => context.auth.tenantId;
  const sees = (context: ConsoleContext, agentTenant: string | null) => watches(tenantOf(context), agentTenant);
  /** Whether a console acting on `scope` (null: every company) sees an agent of `agentTenant`. */
  const watches = (scope: string | null, agentTenant: string | null) => scope === null || scope === agentTenant;

  /** The agents a console acting on `scope` sees, oldest connection first. */
  function agentsSeenBy(scope: string | null): AgentConnection[] {
    const seen: AgentConnection[] = [];
    for (const entry of presence.values()) if (watches(scope, entry.agent.tenantId)) seen.push(entry.agent);
    return seen.sort((a, b) => a.connectedAt - b.connectedAt || a.sessionId.localeCompare(b.sessionId));
  }

  /** A tenant topic's message to every local console that may see it, in the form it subscribed with. */
  function toConsoles(topic: TenantTopic, agentTenant: string | null, body: unknown) {
    const payload = JSON.stringify(body);
    for (const session of consoles) {
      const context = session.context as ConsoleContext;
      if (!sees(context, agentTenant)) continue;
      if (agentTenant) session.sendRaw(tenantTopic(topic, agentTenant), payload);
      if (tenantOf(context) === null) session.sendRaw(topic, payload);
    }
  }

  /**
   * `/topic/active-agents`: the whole list of each console's scope, coalesced (at most one list a
   * console per interval) and, per scope, built and serialised once for every console that shares it.
   * The interval grows with the lists (a list of 2,500 agents is about 1 MB): the connect and
   * disconnect topics carry the changes in between.
   */
  function scheduleActiveAgents(agentTenant: string | null) {
    for (const session of consoles) {
      if (sees(session.context as ConsoleContext, agentTenant) && session.isSubscribed(DESTINATIONS.activeAgents))
        pendingLists.add(session);
    }
    if (pendingLists.size === 0 || listTimer) return;
    const every = options.activeAgentsEveryMs ?? 250;
    listTimer = setTimeout(flushActiveAgents, every * Math.max(1, Math.ceil(presence.size / 1000)));
  }

  function flushActiveAgents() {
    listTimer = undefined;
    const lists = new Map<string | null, string>();
    for (const session of pendingLists) {
      if (session.closed) continue;
      const scope = tenantOf(session.context as ConsoleContext);
      let list = lists.get(scope);
      if (list === undefined) {
        list = JSON.stringify(agentsSeenBy(scope));
        lists.set(scope, list);
      }
      session.sendRaw(DESTINATIONS.activeAgents, list);
    }
    pendingLists.clear();
  }

  // ----- presence, as every instance applies the backplane's messages -----------------------

  function applyChanges<T extends { id: number }>(
    items: T[],
    changes: { added: T[]; updated: T[]; removed: number[] },
  ): T[] {
    const byId = new Map(items.map((item) => [item.id, item]));
    for (const item of changes.added) byId.set(item.id, item);
    for (const item of changes.updated) byId.set(item.id, item);
    for (const id of changes.removed) byId.delete(id);
    return [...byId.values()];
  }

  function removeAgent(sessionId: string) {
    const entry = presence.get(sessionId);
    if (!entry) return;
    presence.delete(sessionId);
    if (sessionOfKey.get(entry.keyDigest) === sessionId) sessionOfKey.delete(entry.keyDigest);
    toConsoles(DESTINATIONS.disconnect, entry.agent.tenantId, { sessionId });
    scheduleActiveAgents(entry.agent.tenantId);
  }

  function apply(message: BackplaneMessage) {
    switch (message.type) {
      case 'agent-up': {
        const entry = { instanceId: message.instanceId, keyDigest: message.keyDigest, agent: message.agent };
        presence.set(message.agent.sessionId, entry);
        sessionOfKey.set(message.keyDigest, message.agent.sessionId);
        toConsoles(DESTINATIONS.connect, message.agent.tenantId, message.agent);
        scheduleActiveAgents(message.agent.tenantId);
        return;
      }
      case 'agent-down':
        return removeAgent(message.sessionId);
      case 'agent-workflows': {
        const entry = presence.get(message.sessionId);
        if (entry) entry.agent.workflows = applyChanges(entry.agent.workflows, message.changes);
        toConsoles(DESTINATIONS.workflows, message.tenantId, { sessionId: message.sessionId, ...message.changes });
        return;
      }
      case 'agent-queue': {
        const entry = presence.get(message.sessionId);
        if (entry) {
          entry.agent.queuedWorkflows = applyChanges(entry.agent.queuedWorkflows, message.changes).sort(
            (a, b) => a.position - b.position || a.id - b.id,
          );
        }
        toConsoles(DESTINATIONS.queue, message.tenantId, { sessionId: message.sessionId, ...message.changes });
        return;
      }
      case 'execution': {
        toConsoles(DESTINATIONS.executions, message.notice.tenantId, message.notice);
        return;
      }
      case 'command': {
        localAgents.get(message.sessionId)?.send(DESTINATIONS.agentCommands, message.command);
        return;
      }
      case 'evict': {
        const accounts = new Set(message.accountIds);
        const licences = new Set(message.licenseIds);
        for (const session of localAgents.values()) {
          const { key } = (session.context as AgentContext).identity;
          if (accounts.has(key.accountId) || licences.has(key.licenseId)) session.close(message.key);
        }
        return;
      }
    }
  }
  backplane.onMessage(apply);
  backplane.onInstanceGone((instanceId) => {
    for (const [sessionId, entry] of presence) if (entry.instanceId === instanceId) removeAgent(sessionId);
  });
  // Back after an outage: the others may have taken this instance for dead and dropped its agents.
  backplane.onReconnect?.(() => {
    for (const sessionId of localAgents.keys()) {
      const entry = presence.get(sessionId);
      if (!entry) continue;
      void backplane.saveAgent(entry).catch(() => {});
      void backplane
        .publish({ type: 'agent-up', instanceId: backplane.instanceId, agent: entry.agent, keyDigest: entry.keyDigest })
        .catch(() => {});
    }
    void loadSnapshot();
  });

  async function loadSnapshot() {
    for (const entry of await backplane.snapshot().catch(() => [])) {
      if (!presence.has(entry.agent.sessionId)) {
        presence.set(entry.agent.sessionId, entry);
        sessionOfKey.set(entry.keyDigest, entry.agent.sessionId);
      }
    }
  }

  // ----- agents ------------------------------------------------------------------------------

  async function connectAgent(header: (name: string) => string | undefined): Promise<AgentContext> {
    const identity = await identifyAgent(
      { db, appKeys: options.access.appKeys, agentSecret: options.agentSecret },
      header,
    );
    const holder = sessionOfKey.get(identity.keyDigest);
    const held = holder ? presence.get(holder) : undefined;
    if (held) {
      if (held.agent.macAddress !== identity.macAddress) throw refuse('ERROR_AGENT_KEY_IN_USE');
      // The same machine again (a restart, a dropped network): the new connection replaces the old.
      await backplane.publish({
        type: 'evict',
        accountIds: [identity.key.accountId],
        licenseIds: [],
        key: 'ERROR_AGENT_REPLACED',
      });
    }
    const { key } = identity;
    const last = await lastExecutions(db, key.accountId);
    const workflows: AgentWorkflow[] = key.tenantId
      ? (await tenantWorkflows(key.tenantId)).map((row) => ({ ...row, lastExecution: last.get(row.id) ?? null }))
      : [];
    return { kind: 'agent', identity, workflows };
  }

  /** Synchronous up to the publish: with one instance the agent is listed before any frame of its client is read. */
  async function agentConnected(session: LiveSession) {
    const { identity, workflows } = session.context as AgentContext;
    const { key } = identity;
    const [firstName = '', ...rest] = (key.fullName ?? '').trim().split(/\s+/).filter(Boolean);
    const agent: AgentConnection = {
      sessionId: session.id,
      tenantId: key.tenantId,
      companyName: key.companyName,
      accountId: key.accountId,
      firstName,
      lastName: rest.join(' '),
      macAddress: identity.macAddress,
      hostname: identity.hostname,
      connectedAt: Date.now(),
      workflows,
      queuedWorkflows: [],
    };
    localAgents.set(session.id, session);
    const entry: PresenceEntry = { instanceId: backplane.instanceId, keyDigest: identity.keyDigest, agent };
    await backplane.publish({
      type: 'agent-up',
      instanceId: backplane.instanceId,
      agent,
      keyDigest: identity.keyDigest,
    });
    await backplane.saveAgent(entry).catch((err: unknown) => log.warn({ err }, 'presence not saved'));
  }

  /**
   * What a company's agents may run is the same for all of them: read once per company and kept
   * until its workflows change (10,000 agents reconnecting read it a few times, not 10,000).
   */
  const workflowLists = new Map<string, Promise<{ id: number; name: string }[]>>();
  function tenantWorkflows(tenantId: string) {
    let list = workflowLists.get(tenantId);
    if (!list) {
      list = runnableWorkflows(db, tenantId);
      workflowLists.set(tenantId, list);
      list.catch(() => workflowLists.delete(tenantId));
    }
    return list;
  }

  /** What the agent may run, sent when it subscribes, then as the workflows change. */
  function sendWorkflowList(session: LiveSession) {
    const entry = presence.get(session.id);
    if (entry) session.send(DESTINATIONS.agentWorkflows, { added: entry.agent.workflows, updated: [], removed: [] });
  }

  function agentSubscribe(session: LiveSession, destination: string) {
    if (destination === DESTINATIONS.agentWorkflows) {
      setImmediate(() => sendWorkflowList(session));
      return;
    }
    if (destination === DESTINATIONS.agentCommands || destination === DESTINATIONS.errors) return;
    throw refuse('ERROR_LIVE_DESTINATION_UNKNOWN');
  }

  async function agentMessage(session: LiveSession, destination: string, body: Buffer) {
    const { identity } = session.context as AgentContext;
    const tenantId = identity.key.tenantId;
    const entry = presence.get(session.id);
    switch (destination) {
      case DESTINATIONS.agentQueue: {
        const changes: QueueChanges = parse(QueueChangesSchema, body);
        // Each instance keeps every agent's queue in memory: one agent may not grow it without bound.
        if ((entry?.agent.queuedWorkflows.length ?? 0) + changes.added.length > MAX_LIST_ITEMS)
          throw refuse('ERROR_GENERAL_INVALID_INPUT');
        await backplane.publish({ type: 'agent-queue', sessionId: session.id, tenantId, changes });
        // The scheduled count of the reports; the consoles have the change already, whatever happens here.
        await options.executions
          .recordQueue(executingAgent(identity), changes)
          .catch((err: unknown) => log.warn({ err }, 'queued runs not counted'));
        return;
      }
      case DESTINATIONS.agentWorkflowUpdates: {
        const { updated } = parse(WorkflowUpdates, body);
        // Only workflows the agent was given: an agent cannot name another tenant's.
        const known = new Set(entry?.agent.workflows.map((workflow) => workflow.id));
        const changes: WorkflowChanges = {
          added: [],
          updated: updated.filter((workflow) => known.has(workflow.id)),
          removed: [],
        };
        if (changes.updated.length > 0)
          await backplane.publish({ type: 'agent-workflows', sessionId: session.id, tenantId, changes });
        return;
      }
      case DESTINATIONS.agentExecution: {
        const report = parse(ExecutionReport, body);
        const { notice } = await options.executions.record(executingAgent(identity), report);
        if (notice) {
          await backplane
            .publish({ type: 'execution', notice })
            .catch((err: unknown) => log.warn({ err }, 'execution not relayed'));
        }
        return;
      }
      case DESTINATIONS.agentActivity: {
        if (!options.activity) throw refuse('ERROR_LIVE_DESTINATION_UNKNOWN');
        const frame = parse(ActivityFrame, body);
        const { refusals } = await options.activity.record({ accountId: identity.key.accountId, tenantId }, frame);
        // Each refused span on its own, with its id; the frame's others are stored and it is receipted.
        for (const { id, key } of refusals)
          session.send(DESTINATIONS.errors, { destination, key, message: ERROR_MESSAGES[key], id });
        return;
      }
      default:
        throw refuse('ERROR_LIVE_DESTINATION_UNKNOWN');
    }
  }

  /** Workflows created, changed or archived: each local agent of that tenant hears of it. */
  async function onWorkflowsChanged(event: DomainEvent) {
    if (!event.tenantId) return;
    const agents = [...localAgents.values()].filter(
      (session) => (session.context as AgentContext).identity.key.tenantId === event.tenantId,
    );
    if (agents.length === 0) return;
    const rows =
      event.kind === 'archived' || event.kind === 'deleted'
        ? []
        : await runnableWorkflows(db, event.tenantId, event.ids);
    const live = new Map(rows.map((row) => [row.id, row]));
    for (const session of agents) {
      const entry = presence.get(session.id);
      if (!entry) continue;
      const known = new Map(entry.agent.workflows.map((workflow) => [workflow.id, workflow]));
      const changes: WorkflowChanges = { added: [], updated: [], removed: [] };
      for (const id of event.ids) {
        const row = live.get(id);
        const had = known.get(id);
        if (row && had) changes.updated.push({ ...had, name: row.name });
        else if (row) changes.added.push({ ...row, lastExecution: null });
        else if (had) changes.removed.push(id);
      }
      if (changes.added.length + changes.updated.length + changes.removed.length === 0) continue;
      session.send(DESTINATIONS.agentWorkflows, changes);
      await backplane
        .publish({ type: 'agent-workflows', sessionId: session.id, tenantId: event.tenantId, changes })
        .catch((err: unknown) => log.warn({ err }, 'workflow change not relayed'));
    }
  }

  /** Re-reads the keys of local agents; those no longer valid are disconnected with the reason. */
  async function recheckAgents(filter: (context: AgentContext) => boolean) {
    const now = Date.now();
    for (const session of [...localAgents.values()]) {
      const context = session.context as AgentContext;
      if (!filter(context)) continue;
      const key = await findAgentKey(db, context.identity.keyDigest);
      const refusal = keyRefusal(key, now);
      if (refusal) session.close(refusal);
      else if (key) context.identity.key.expirationDate = key.expirationDate;
    }
  }

  const expiryTimer = setInterval(() => {
    const now = Date.now();
    for (const session of [...localAgents.values()]) {
      if ((session.context as AgentContext).identity.key.expirationDate <= now)
        session.close('ERROR_LICENSE_EXPIRED_KEY');
    }
  }, options.expiryCheckMs ?? 15_000);
  expiryTimer.unref();

  // ----- consoles ----------------------------------------------------------------------------

  async function connectConsole(header: (name: string) => string | undefined): Promise<ConsoleContext> {
    const credentials = {
      appKey: header(CONNECT_HEADERS.appKey),
      token: header(CONNECT_HEADERS.token) ?? '',
      tenantId: header(CONNECT_HEADERS.tenant),
    };
    const auth = await authenticateHeaders(options.access, credentials);
    if (!auth.authorities.has('VIEW_WORKFLOW_EVENTS')) throw refuse('ERROR_FORBIDDEN');
    return { kind: 'console', auth, credentials };
  }

  /** `/topic/queue` (admin watching all) or `/topic/queue/{t}` (the console's own tenant). */
  function consoleSubscribe(session: LiveSession, destination: string) {
    const context = session.context as ConsoleContext;
    switch (destination) {
      case DESTINATIONS.identity:
        setImmediate(() => session.send(DESTINATIONS.identity, { tenantId: tenantOf(context), sessionId: session.id }));
        return;
      case DESTINATIONS.errors:
      case DESTINATIONS.activeAgentsReply:
      case DESTINATIONS.activeAgents:
        return;
    }
    for (const topic of TENANT_TOPICS) {
      if (destination === topic) {
        if (tenantOf(context) !== null) throw refuse('ERROR_TENANT_FORBIDDEN');
        return;
      }
      if (destination.startsWith(`${topic}/`)) {
        const tenant = destination.slice(topic.length + 1);
        if (tenant !== tenantOf(context)) throw refuse('ERROR_TENANT_FORBIDDEN');
        return;
      }
    }
    throw refuse('ERROR_LIVE_DESTINATION_UNKNOWN');
  }

  /** The agent a console's command names, if the console may command it. */
  async function commandTarget(context: ConsoleContext, sessionId: string, workflowId: number) {
    if (!COMMAND_AUTHORITIES.every((authority) => context.auth.authorities.has(authority)))
      throw refuse('ERROR_FORBIDDEN');
    const entry = presence.get(sessionId);
    if (!entry || !sees(context, entry.agent.tenantId)) {
      // Another company's agent is refused as such; one that is gone, as gone.
      throw refuse(entry ? 'ERROR_TENANT_FORBIDDEN' : 'ERROR_AGENT_NOT_CONNECTED');
    }
    const tenantId = entry.agent.tenantId;
    if (!tenantId || !(await findWorkflow(db, workflowId, tenantId))) throw refuse('ERROR_WORKFLOW_NOT_EXIST');
    const refusal = keyRefusal(await findAgentKey(db, entry.keyDigest));
    if (refusal) {
      await backplane.publish({ type: 'evict', accountIds: [entry.agent.accountId], licenseIds: [], key: refusal });
      throw refuse(refusal);
    }
    return entry;
  }

  async function sendCommand(sessionId: string, command: AgentCommand) {
    await backplane.publish({ type: 'command', sessionId, command });
  }

  async function consoleMessage(session: LiveSession, destination: string, body: Buffer) {
    const context = session.context as ConsoleContext;
    switch (destination) {
      case DESTINATIONS.requestActiveAgents:
        session.send(DESTINATIONS.activeAgentsReply, agentsSeenBy(tenantOf(context)));
        return;
      case DESTINATIONS.executeCommand: {
        const command = parse(ExecuteCommand, body);
        await commandTarget(context, command.sessionId, command.workflowId);
        await sendCommand(command.sessionId, { command: 'execute', workflowId: command.workflowId });
        return;
      }
      case DESTINATIONS.terminateCommand: {
        const command = parse(TerminateCommand, body);
        const entry = await commandTarget(context, command.sessionId, command.workflowId);
        const queued = entry.agent.queuedWorkflows.find(
          (item) => item.id === command.queueId && item.workflowId === command.workflowId,
        );
        if (!queued) throw refuse('ERROR_AGENT_QUEUE_ENTRY_NOT_EXIST');
        await sendCommand(command.sessionId, {
          command: 'terminate',
          workflowId: command.workflowId,
          queueId: command.queueId,
        });
        return;
      }
      case DESTINATIONS.consoleConnect:
      case DESTINATIONS.consoleIdentity:
        return;
      default:
        throw refuse('ERROR_LIVE_DESTINATION_UNKNOWN');
    }
  }

  /** A console whose session ended or lost its authority is closed (sign-out, role change). */
  async function recheckConsoles() {
    for (const session of [...consoles]) {
      const context = session.context as ConsoleContext;
      try {
        const auth = await authenticateHeaders(options.access, context.credentials);
        if (!auth.authorities.has('VIEW_WORKFLOW_EVENTS')) session.close('ERROR_FORBIDDEN');
        else context.auth = auth;
      } catch (err) {
        session.close(err instanceof AppError ? err.key : 'ERROR_UNAUTHORIZED');
      }
    }
  }

  // ----- domain events -----------------------------------------------------------------------

  const unsubscribe = options.events.subscribe(
    (event) => {
      switch (event.resource) {
        case 'workflows':
          if (event.tenantId) workflowLists.delete(event.tenantId);
          return onWorkflowsChanged(event);
        case 'licenses': {
          const ids = new Set(event.ids);
          return recheckAgents((context) => ids.has(context.identity.key.licenseId));
        }
        case 'accounts': {
          const ids = new Set(event.ids);
          return recheckAgents((context) => ids.has(context.identity.key.accountId));
        }
        default:
          return consoles.size > 0 ? recheckConsoles() : undefined;
      }
    },
    { resources: ['workflows', 'licenses', 'accounts', 'sessions', 'users', 'roles', 'companies'] },
  );

  // ----- the transport's handlers -----------------------------------------------------------

  const handlers: StompHandlers<LiveContext> = {
    connect(headers: Readonly<Record<string, string>>, _request: IncomingMessage) {
      const header = (name: string) => headers[name];
      const platform = headers[CONNECT_HEADERS.platform];
      return refusing<LiveContext>(() => {
        if (platform === 'agent') return connectAgent(header);
        if (platform === 'console' || platform === undefined) return connectConsole(header);
        throw refuse('ERROR_GENERAL_INVALID_INPUT');
      });
    },
    async connected(session) {
      if (session.context.kind === 'agent') return agentConnected(session);
      consoles.add(session);
    },
    subscribe(session, destination) {
      return refusing(() =>
        session.context.kind === 'agent'
          ? agentSubscribe(session, destination)
          : consoleSubscribe(session, destination),
      );
    },
    message(session, destination, body) {
      return refusing(() =>
        session.context.kind === 'agent'
          ? agentMessage(session, destination, body)
          : consoleMessage(session, destination, body),
      );
    },
    disconnected(session) {
      pendingLists.delete(session);
      if (session.context.kind === 'console') {
        consoles.delete(session);
        return;
      }
      if (localAgents.get(session.id) !== session) return;
      localAgents.delete(session.id);
      // Its open spans end at the last thing it sent (docs/monitor.md).
      const { key } = (session.context as AgentContext).identity;
      void options.activity
        ?.agentGone({ accountId: key.accountId, tenantId: key.tenantId }, session.lastHeardAt)
        .catch((err: unknown) => log.warn({ err }, 'open activity spans not closed'));
      const entry = presence.get(session.id);
      void backplane.deleteAgent(session.id).catch(() => {});
      void backplane
        .publish({ type: 'agent-down', sessionId: session.id, tenantId: entry?.agent.tenantId ?? null })
        .catch(() => removeAgent(session.id));
    },
  };

  return {
    handlers,
    /** `GET /api/active-agents`: the same list as `/request/active-agents`. */
    activeAgents: (auth: RequestAuth): AgentConnection[] => agentsSeenBy(auth.tenantId),
    /** An agent's own download of a workflow file (same headers as its CONNECT). */
    identifyAgent: (header: (name: string) => string | undefined) =>
      identifyAgent({ db, appKeys: options.access.appKeys, agentSecret: options.agentSecret }, header),
    /** The keys with an agent connected now, on any instance. */
    connectedAccounts: (): number[] => [...presence.values()].map((entry) => entry.agent.accountId),
    /** This instance's agents and when each was last heard from (a frame or a heart-beat). */
    localAgentsHeard: (): { accountId: number; tenantId: string | null; at: number }[] =>
      [...localAgents.values()].map((session) => {
        const { key } = (session.context as AgentContext).identity;
        return { accountId: key.accountId, tenantId: key.tenantId, at: session.lastHeardAt };
      }),
    /** Loads the presence other instances hold (a late start). */
    start: loadSnapshot,
    stop() {
      clearInterval(expiryTimer);
      if (listTimer) clearTimeout(listTimer);
      unsubscribe();
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
