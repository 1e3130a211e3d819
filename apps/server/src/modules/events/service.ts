import type { IncomingMessage } from 'node:http';
import { ActivityFrame } from '@opsdeck/contract/activity';
import { ERROR_MESSAGES } from '@opsdeck/contract/errors';
import {
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
  TerminateCommand,
  type WorkflowChanges,
  WorkflowUpdates,
} from '@opsdeck/contract/live';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor, Tx } from '../../db/client';
import { type AccessControlOptions, authenticateHeaders, type RequestAuth } from '../../platform/access';
import { type AuditWriter, actorOf, originOfSocket } from '../../platform/audit';
import { databaseFailureReason } from '../../platform/database-errors';
import type { DomainEvent, EventBus } from '../../platform/events';
import type { StompHandlers } from '../../platform/stomp/server';
import {
  continueInDatabaseScope,
  type DatabaseScope,
  databaseScopeOf,
  inDatabaseScope,
  inTenant,
} from '../../platform/tenancy';
import type { ActivityService } from '../activity/service';
import type { WebhookOutbox } from '../webhooks/service';
import { type AgentIdentity, type AgentKeyOptions, identifyAgent, keyRefusal } from './agent-keys';
import type { Backplane, BackplaneMessage, PresenceEntry } from './backplane';
import { createCommands } from './commands';
import { createConsoleFanOut, tenantOf } from './console-fan-out';
import {
  type AgentContext,
  type ConsoleContext,
  type ExecutionRecorder,
  executingAgent,
  type LiveContext,
  type LiveSession,
} from './live-context';
import { findAgentKey, prepareAgentStatements, runnableWorkflows } from './queries';
import { backplaneAway, parse, refusalKey, refuse, refusing } from './refusals';

export type { ExecutionRecorder, LiveContext } from './live-context';

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
  /** Writes the audit records of consoles' commands and of machines agents register (docs/audit.md). */
  audit?: AuditWriter;
  /** Tells webhooks of agents connecting and leaving, and of runs finished (docs/webhooks.md). */
  outbox?: WebhookOutbox;
  /** Notes when a key's agent connected or left (alerts' agent_offline; docs/alerts.md). */
  sawAgent?: (sighting: {
    accountId: number;
    tenantId: string | null;
    connected: boolean;
    at: number;
  }) => Promise<void>;
  /** The notifications of a 'notifications' event, with their person: pushed to that person's consoles. */
  notificationsByIds?: (ids: readonly number[]) => Promise<{ userId: number; notification: unknown }[]>;
  /** How often licences are checked for expiry (ms). */
  expiryCheckMs?: number;
  /** The whole-list topic is sent at most this often per console (ms): 10,000 agents connecting must not send 10,000 lists. */
  activeAgentsEveryMs?: number;
  /** How long a command handed to another instance may take to reach the agent (ms) before the console is told it did not. */
  commandConfirmMs?: number;
};

/** How long a departed agent's session id is remembered, so that a stale snapshot cannot bring it back. */
const DEPARTED_KEEP_MS = 60_000;
/** How long the start waits for the backplane's subscription (Redis answering: a few milliseconds). */
const SUBSCRIBE_AT_START_MS = 10_000;

/**
 * The live channel's rules (docs/live-channel.md): who may connect, subscribe and send what; the
 * presence of every agent (of every instance, through the backplane); relaying agents' changes to
 * the consoles of their tenant, consoles' commands to agents; and disconnecting agents whose key or
 * licence stops being valid. The STOMP transport (platform/stomp) knows none of this.
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
  /** Session ids of agents that left lately, oldest first: a snapshot read before they left must not list them again. */
  const departed = new Map<string, number>();
  /** The last roster each other instance said, numbered in the order heard (`rosterCount`). */
  const rosters = new Map<string, { heard: number; sessionIds: ReadonlySet<string> }>();
  let rosterCount = 0;
  const { agentsSeenBy, toConsoles, scheduleActiveAgents, ...fanOut } = createConsoleFanOut({
    presence,
    consoles,
    activeAgentsEveryMs: options.activeAgentsEveryMs ?? 250,
  });
  const { commandTarget, commandSender, sendCommand, deliverCommand, settle } = createCommands({
    db,
    backplane,
    events: options.events,
    access: options.access,
    presence,
    localAgents,
    confirmMs: options.commandConfirmMs ?? 5_000,
  });

  /**
   * A backplane call that failed where the live channel carries on without it. With Redis away
   * the outage is logged once by the Redis connection and put right by `rejoin` when it is back:
   * a debug line here. Anything else is a warning.
   */
  function backplaneFailed(err: unknown, what: string) {
    if (backplaneAway(err)) log.debug({ err }, what);
    else log.warn({ err }, what);
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

  function addAgent(entry: PresenceEntry) {
    presence.set(entry.agent.sessionId, entry);
    sessionOfKey.set(entry.keyDigest, entry.agent.sessionId);
    toConsoles(DESTINATIONS.connect, entry.agent.tenantId, entry.agent);
    scheduleActiveAgents(entry.agent.tenantId);
  }

  function removeAgent(sessionId: string) {
    const entry = presence.get(sessionId);
    if (!entry) return;
    presence.delete(sessionId);
    const now = Date.now();
    departed.set(sessionId, now);
    for (const [id, at] of departed) {
      if (now - at < DEPARTED_KEEP_MS) break;
      departed.delete(id);
    }
    if (sessionOfKey.get(entry.keyDigest) === sessionId) sessionOfKey.delete(entry.keyDigest);
    toConsoles(DESTINATIONS.disconnect, entry.agent.tenantId, { sessionId });
    scheduleActiveAgents(entry.agent.tenantId);
  }

  function apply(message: BackplaneMessage) {
    switch (message.type) {
      case 'agent-up':
        return addAgent({ instanceId: message.instanceId, keyDigest: message.keyDigest, agent: message.agent });
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
        if (message.to !== backplane.instanceId) return;
        // Past its deadline the sender has told the console it did not arrive: it must not.
        const delivered = Date.now() <= message.expiresAt && deliverCommand(message.sessionId, message.command);
        void backplane
          .publish({ type: 'command-result', id: message.id, to: message.from, delivered })
          .catch((err: unknown) => log.warn({ err }, 'command result not sent'));
        return;
      }
      case 'command-result':
        if (message.to === backplane.instanceId) settle(message.id, message.delivered);
        return;
      case 'roster':
        return applyRoster(message);
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
    rosters.delete(instanceId);
    for (const [sessionId, entry] of presence) if (entry.instanceId === instanceId) removeAgent(sessionId);
  });
  backplane.onReconnect?.(() => void rejoin().catch((err: unknown) => log.warn({ err }, 'live presence not rejoined')));

  /** The agents of another instance that it no longer holds are gone (they left while it could not say so). */
  function applyRoster(message: Extract<BackplaneMessage, { type: 'roster' }>) {
    if (message.instanceId === backplane.instanceId) return;
    const listed = new Set(message.sessionIds);
    rosters.set(message.instanceId, { heard: ++rosterCount, sessionIds: listed });
    for (const [sessionId, entry] of presence) {
      if (entry.instanceId === message.instanceId && !listed.has(sessionId)) removeAgent(sessionId);
    }
    if (message.ask) void publishRoster(false);
  }

  function publishRoster(ask: boolean) {
    const sessionIds = [...localAgents.keys()];
    return backplane
      .publish({ type: 'roster', instanceId: backplane.instanceId, sessionIds, ask })
      .catch((err: unknown) => log.warn({ err }, 'live roster not sent'));
  }

  /**
   * Back after Redis was away (docs/live-channel.md, Several instances): Redis may have restarted
   * empty, the others may have dropped this instance's agents, and messages were lost both ways
   * (agents that left on either side were never announced). This instance puts its own agents
   * back in the shared presence (its stale entries out), announces them with the roster of what
   * it holds, asks the others for theirs, and adds the agents it missed from the snapshot.
   */
  async function rejoin() {
    const heardBefore = rosterCount;
    const entries = await backplane.snapshot();
    for (const entry of entries) {
      if (entry.instanceId === backplane.instanceId && !localAgents.has(entry.agent.sessionId))
        await backplane.deleteAgent(entry.agent.sessionId);
    }
    for (const sessionId of localAgents.keys()) {
      const entry = presence.get(sessionId);
      if (!entry) continue;
      await backplane.saveAgent(entry);
      await backplane.publish({
        type: 'agent-up',
        instanceId: backplane.instanceId,
        agent: entry.agent,
        keyDigest: entry.keyDigest,
      });
    }
    await publishRoster(true);
    addMissing(entries, heardBefore);
  }

  /**
   * The snapshot's agents of other instances not known here. Not one that left since (`departed`),
   * nor one missing from its instance's roster heard after the snapshot was asked for.
   */
  function addMissing(entries: readonly PresenceEntry[], heardBefore: number) {
    for (const entry of entries) {
      const { sessionId } = entry.agent;
      if (entry.instanceId === backplane.instanceId || presence.has(sessionId) || departed.has(sessionId)) continue;
      const roster = rosters.get(entry.instanceId);
      if (roster && roster.heard > heardBefore && !roster.sessionIds.has(sessionId)) continue;
      addAgent(entry);
    }
  }

  async function loadSnapshot() {
    // Listening only once the other instances' messages reach this one (a command sent meanwhile
    // would be lost); a Redis that is away does not hold the start up.
    await backplane.whenSubscribed?.(SUBSCRIBE_AT_START_MS);
    const heardBefore = rosterCount;
    let entries: readonly PresenceEntry[] = [];
    try {
      entries = await backplane.snapshot();
    } catch (err) {
      // The server starts all the same: the others' agents are listed as they announce themselves,
      // and all of them once Redis answers again (the backplane's onReconnect runs `rejoin`).
      backplaneFailed(err, "the other instances' agents not loaded at start: listed once Redis answers again");
    }
    addMissing(entries, heardBefore);
  }

  // ----- agents ------------------------------------------------------------------------------

  /** What an agent's key is checked against, at CONNECT and at its file downloads. */
  const agentKeys: AgentKeyOptions = {
    db,
    appKeys: options.access.appKeys,
    agentSecret: options.agentSecret,
    events: options.events,
    audit: options.audit,
  };

  const statements = prepareAgentStatements(db);

  async function connectAgent(
    header: (name: string) => string | undefined,
    address: string | null,
  ): Promise<AgentContext> {
    // The key and its last runs in one query: 10,000 agents reconnecting make 10,000 round trips, not 20,000.
    const { key: connecting, ...identified } = await identifyAgent(
      agentKeys,
      header,
      statements.connectingAgentKey,
      address,
    );
    const { lastRuns: last, ...key } = connecting;
    const identity: AgentIdentity = { ...identified, key };
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
    const workflows: AgentWorkflow[] = key.tenantId
      ? (await tenantWorkflows(key.tenantId)).map((row) => ({ ...row, lastExecution: last.get(row.id) ?? null }))
      : [];
    return { kind: 'agent', identity, workflows };
  }

  /**
   * Synchronous up to the first backplane call: with one instance the agent is listed before any
   * frame of its client is read. With Redis away the agent is refused (ERROR_SERVICE_UNAVAILABLE)
   * and comes back later: the one session per key cannot be checked across instances.
   */
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
    // Saved before it is announced: an instance that hears of it and then reads the snapshot finds it there.
    await backplane.saveAgent(entry);
    await backplane.publish({
      type: 'agent-up',
      instanceId: backplane.instanceId,
      agent,
      keyDigest: identity.keyDigest,
    });
    await tellWebhooks('agent.connected', identity);
    await noteSighting(key, true, agent.connectedAt);
  }

  /** When the key's agent was last connected, for the agent_offline alerts; a failure is logged. */
  async function noteSighting(key: AgentContext['identity']['key'], connected: boolean, at: number) {
    await options
      .sawAgent?.({ accountId: key.accountId, tenantId: key.tenantId, connected, at })
      .catch((err: unknown) => log.error({ err, accountId: key.accountId }, 'agent sighting not written'));
  }

  /** New notifications, to the consoles of their people this instance holds. */
  async function pushNotifications(ids: readonly number[]) {
    if (!options.notificationsByIds || consoles.size === 0) return;
    const found = await options.notificationsByIds(ids);
    for (const session of consoles) {
      const { auth } = session.context as ConsoleContext;
      for (const entry of found) {
        if (entry.userId === auth.userId) session.send(DESTINATIONS.notifications, entry.notification);
      }
    }
  }

  /** An agent's arrival or departure, to the webhooks; a failure is logged, never the agent's. */
  async function tellWebhooks(type: 'agent.connected' | 'agent.disconnected', identity: AgentContext['identity']) {
    const { key } = identity;
    await options.outbox
      ?.emit(type, key.tenantId, {
        agent: { accountId: key.accountId, partialKey: key.partialKey, machineName: identity.hostname },
      })
      .catch((err: unknown) => log.error({ err, accountId: key.accountId, type }, 'webhook event not written'));
  }

  /**
   * What a company's agents may run is the same for all of them: read once per company and kept
   * until its workflows change (10,000 agents reconnecting read it a few times, not 10,000).
   */
  const workflowLists = new Map<string, Promise<{ id: number; name: string }[]>>();
  /** One company's runnable workflows, read in its scope (whoever asks: a CONNECT, a change). */
  const companyWorkflows = (tenantId: string, ids?: readonly number[]) =>
    inTenant(tenantId, () => runnableWorkflows(db, tenantId, ids));
  function tenantWorkflows(tenantId: string) {
    let list = workflowLists.get(tenantId);
    if (!list) {
      list = companyWorkflows(tenantId);
      workflowLists.set(tenantId, list);
      // Only forgets a failed read, so that the next agent reads again: the failure itself goes to
      // the caller that awaits `list` (the connecting agent, refused ERROR_SERVICE_UNAVAILABLE).
      list.catch((err: unknown) => {
        workflowLists.delete(tenantId);
        log.debug({ err, tenantId }, "a company's workflow list not read; the next agent reads it again");
      });
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

  /**
   * An agent's change of its own queue or workflows. With Redis away it still applies here (the
   * agent is not refused for what it did): the instance announces its agents whole when it is
   * back (`rejoin`), so the others catch up then.
   */
  async function publishAgentChange(message: BackplaneMessage) {
    try {
      await backplane.publish(message);
    } catch (error) {
      if (!backplaneAway(error)) throw error;
      apply(message);
    }
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
        await publishAgentChange({ type: 'agent-queue', sessionId: session.id, tenantId, changes });
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
          await publishAgentChange({ type: 'agent-workflows', sessionId: session.id, tenantId, changes });
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
      event.kind === 'archived' || event.kind === 'deleted' ? [] : await companyWorkflows(event.tenantId, event.ids);
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

  async function connectConsole(
    header: (name: string) => string | undefined,
    origin: ConsoleContext['origin'],
  ): Promise<ConsoleContext> {
    const credentials = {
      appKey: header(CONNECT_HEADERS.appKey),
      token: header(CONNECT_HEADERS.token) ?? '',
      tenantId: header(CONNECT_HEADERS.tenant),
    };
    // Any signed-in person: without VIEW_WORKFLOW_EVENTS a console has its own destinations only
    // (its identity, its refusals, its notifications; docs/alerts.md), nothing of the agents.
    const auth = await authenticateHeaders(options.access, credentials);
    return { kind: 'console', auth, credentials, origin };
  }

  /** What a console may watch of the agents: their presence, queues, runs, and commands besides. */
  const watchesAgents = (auth: RequestAuth) => auth.authorities.has('VIEW_WORKFLOW_EVENTS');
  /** A console's own destinations, open to any signed-in person. */
  const PERSONAL: ReadonlySet<string> = new Set([
    DESTINATIONS.identity,
    DESTINATIONS.errors,
    DESTINATIONS.notifications,
  ]);

  /** `/topic/queue` (admin watching all) or `/topic/queue/{t}` (the console's own tenant). */
  function consoleSubscribe(session: LiveSession, destination: string) {
    const context = session.context as ConsoleContext;
    switch (destination) {
      case DESTINATIONS.identity:
        setImmediate(() => session.send(DESTINATIONS.identity, { tenantId: tenantOf(context), sessionId: session.id }));
        return;
      case DESTINATIONS.errors:
      case DESTINATIONS.notifications:
        return;
    }
    if (!watchesAgents(context.auth)) throw refuse('ERROR_FORBIDDEN');
    if (destination === DESTINATIONS.activeAgentsReply || destination === DESTINATIONS.activeAgents) return;
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

  async function consoleMessage(session: LiveSession, destination: string, body: Buffer) {
    const context = session.context as ConsoleContext;
    switch (destination) {
      case DESTINATIONS.requestActiveAgents:
        if (!watchesAgents(context.auth)) throw refuse('ERROR_FORBIDDEN');
        session.send(DESTINATIONS.activeAgentsReply, agentsSeenBy(tenantOf(context)));
        return;
      case DESTINATIONS.executeCommand: {
        const command = parse(ExecuteCommand, body);
        const entry = await commandTarget(await commandSender(session), command.sessionId, command.workflowId);
        await recordCommand(context, 'agent.execute', entry, { workflowId: command.workflowId });
        await sendCommand(entry, { command: 'execute', workflowId: command.workflowId });
        return;
      }
      case DESTINATIONS.terminateCommand: {
        const command = parse(TerminateCommand, body);
        const entry = await commandTarget(await commandSender(session), command.sessionId, command.workflowId);
        const queued = entry.agent.queuedWorkflows.find(
          (item) => item.id === command.queueId && item.workflowId === command.workflowId,
        );
        if (!queued) throw refuse('ERROR_AGENT_QUEUE_ENTRY_NOT_EXIST');
        await recordCommand(context, 'agent.terminate', entry, {
          workflowId: command.workflowId,
          queueId: command.queueId,
        });
        await sendCommand(entry, {
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

  /**
   * A console's command to an agent is recorded before it is sent (docs/audit.md): a command whose
   * record cannot be written is not sent.
   */
  async function recordCommand(
    context: ConsoleContext,
    action: 'agent.execute' | 'agent.terminate',
    entry: PresenceEntry,
    sent: Record<string, string | number>,
  ) {
    if (!options.audit) return;
    const write = options.audit;
    const { agent } = entry;
    await db.transaction((tx) =>
      write(tx as Tx, [
        {
          at: Date.now(),
          action,
          entityType: 'agent',
          entityId: String(agent.accountId),
          entityName: agent.hostname ?? agent.macAddress,
          tenantId: agent.tenantId,
          actor: actorOf(context.auth),
          changes: Object.entries(sent).map(([field, value]) => ({ field, before: null, after: value })),
          ...context.origin,
        },
      ]),
    );
  }

  /** A console whose session ended or lost its authority is closed (sign-out, role change). */
  async function recheckConsoles() {
    for (const session of [...consoles]) {
      const context = session.context as ConsoleContext;
      try {
        const auth = await authenticateHeaders(options.access, context.credentials);
        // Lost VIEW_WORKFLOW_EVENTS while watching the agents: closed (its own destinations alone may stay).
        if (!watchesAgents(auth) && session.destinations().some((destination) => !PERSONAL.has(destination))) {
          session.close('ERROR_FORBIDDEN');
        } else context.auth = auth;
      } catch (err) {
        // A database or Redis away is no sign-out: closed as unavailable, the console reconnects
        // (ERROR_UNAUTHORIZED would sign its person out). A bug is closed as internal, and logged.
        const key = refusalKey(err);
        if (key === undefined) log.error({ err, session: session.id }, "a console's session not checked again: closed");
        else if (key === 'ERROR_SERVICE_UNAVAILABLE')
          log.warn(
            { reason: databaseFailureReason(err), session: session.id },
            "a console's session not checked again (database or Redis away): closed, it reconnects",
          );
        session.close(key ?? 'ERROR_GENERAL_INTERNAL');
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
        case 'notifications':
          return pushNotifications(event.ids);
        default:
          return consoles.size > 0 ? recheckConsoles() : undefined;
      }
    },
    { resources: ['workflows', 'licenses', 'accounts', 'sessions', 'users', 'roles', 'companies', 'notifications'] },
  );

  // Back after missing other instances' events (Redis away): a sign-out, a role change, an
  // invalidated key may have been among them, so every console and agent here is checked again.
  const stopResync = options.events.onResync?.(() => {
    if (consoles.size > 0) void recheckConsoles();
    void recheckAgents(() => true).catch((err: unknown) => log.warn({ err }, 'agents not checked again'));
  });

  // ----- the transport's handlers -----------------------------------------------------------

  const handlers: StompHandlers<LiveContext> = {
    connect(headers: Readonly<Record<string, string>>, request: IncomingMessage) {
      const header = (name: string) => headers[name];
      const platform = headers[CONNECT_HEADERS.platform];
      const origin = originOfSocket(request);
      return refusing<LiveContext>(() => {
        if (platform === 'agent') return connectAgent(header, origin.address);
        if (platform === 'console' || platform === undefined) return connectConsole(header, origin);
        throw refuse('ERROR_GENERAL_INVALID_INPUT');
      });
    },
    async connected(session) {
      if (session.context.kind === 'agent')
        return inDatabaseScope(scopeOfSession(session), () => refusing(() => agentConnected(session)));
      consoles.add(session);
    },
    subscribe(session, destination) {
      return inDatabaseScope(scopeOfSession(session), () =>
        refusing(() =>
          session.context.kind === 'agent'
            ? agentSubscribe(session, destination)
            : consoleSubscribe(session, destination),
        ),
      );
    },
    message(session, destination, body) {
      return inDatabaseScope(scopeOfSession(session), () =>
        refusing(() =>
          session.context.kind === 'agent'
            ? agentMessage(session, destination, body)
            : consoleMessage(session, destination, body),
        ),
      );
    },
    disconnected(session) {
      continueInDatabaseScope(scopeOfSession(session), () => sessionEnded(session));
    },
  };

  /**
   * The database's scope of what a session's frames cause (docs/tenancy.md): an agent's, its key's
   * company (the provider's for a key of no company); a console's, its person's, as their
   * requests. Only the CONNECT, which finds out who is calling, runs as the provider.
   */
  function scopeOfSession(session: LiveSession): DatabaseScope {
    const { context } = session;
    return databaseScopeOf(
      context.kind === 'agent' ? { ownTenantId: context.identity.key.tenantId } : (context as ConsoleContext).auth,
    );
  }

  /** A session gone: a console forgotten; an agent's presence, open spans and sighting closed. */
  function sessionEnded(session: LiveSession) {
    fanOut.forget(session);
    if (session.context.kind === 'console') {
      consoles.delete(session);
      return;
    }
    if (localAgents.get(session.id) !== session) return;
    localAgents.delete(session.id);
    // Its open spans end at the last thing it sent (docs/monitor.md).
    const { identity } = session.context as AgentContext;
    const { key } = identity;
    void tellWebhooks('agent.disconnected', identity);
    void noteSighting(key, false, session.lastHeardAt);
    void options.activity
      ?.agentGone({ accountId: key.accountId, tenantId: key.tenantId }, session.lastHeardAt)
      .catch((err: unknown) => log.warn({ err }, 'open activity spans not closed'));
    const entry = presence.get(session.id);
    void backplane
      .deleteAgent(session.id)
      .catch((err: unknown) =>
        backplaneFailed(err, "a departed agent's presence not removed: this instance clears it when it rejoins"),
      );
    void backplane
      .publish({ type: 'agent-down', sessionId: session.id, tenantId: entry?.agent.tenantId ?? null })
      .catch((err: unknown) => {
        // This instance's consoles hear of it at once; the others drop it with this instance's roster.
        backplaneFailed(err, "an agent's departure not announced to the other instances: removed here only");
        removeAgent(session.id);
      });
  }

  return {
    handlers,
    /** `GET /api/active-agents`: the same list as `/request/active-agents`. */
    activeAgents: (auth: RequestAuth): AgentConnection[] => agentsSeenBy(auth.tenantId),
    /** An agent's own download of a workflow file (same headers as its CONNECT). */
    identifyAgent: (header: (name: string) => string | undefined, address: string | null = null) =>
      identifyAgent(agentKeys, header, (digest) => findAgentKey(db, digest), address),
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
      fanOut.stop();
      unsubscribe();
      stopResync?.();
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
