import { z } from 'zod';

/**
 * The live channel between consoles, agents and the server (its protocol, fixed for agent and
 * console writers: `docs/live-channel.md`): STOMP 1.2 over WebSocket at `LIVE_PATH`, JSON bodies.
 * Every destination and every message shape is here, once, for the server, the console, the agent
 * simulator and the tests.
 */
export const LIVE_PATH = '/api/live';
export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'] as const;
/** What the server offers in CONNECTED's `heart-beat` (ms): send every 10 s, expect every 10 s. */
export const SERVER_HEART_BEAT = [10_000, 10_000] as const;
/** Frames over this many bytes (command, headers and body) are refused and the socket closed. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** The agents' and the console's application keys (X-App-Key), as the HTTP API knows them. */
export { AGENT_APP_KEY, CONSOLE_APP_KEY } from './http';
/** The embedded demo's agent secret (X-App-Secret) when AGENT_SECRET is not set. */
export const DEMO_AGENT_SECRET = 'opsdeck-agent-secret';

export const Platform = z.enum(['console', 'agent']);
export type Platform = z.infer<typeof Platform>;

/** CONNECT header names (STOMP header names are case-sensitive: exactly these). */
export const CONNECT_HEADERS = {
  appKey: 'X-App-Key',
  token: 'X-Auth-Token',
  tenant: 'X-Tenant-Id',
  secret: 'X-App-Secret',
  licenseKey: 'license-key',
  macAddress: 'mac-address',
  hostname: 'hostname',
  platform: 'platform',
} as const;

/** Destinations, by who sends to them. `{t}` is a tenant id; an admin watching every company uses the form without it. */
export const DESTINATIONS = {
  // server → console
  activeAgentsReply: '/user/topic/active-agents',
  activeAgents: '/topic/active-agents',
  connect: '/topic/connect',
  disconnect: '/topic/disconnect',
  workflows: '/topic/workflows',
  queue: '/topic/queue',
  /** A run an agent of the tenant ended and the server stored (docs/live-channel.md): `ExecutionNotice`. */
  executions: '/topic/executions',
  identity: '/user/topic/identity',
  errors: '/user/topic/errors',
  /** A new entry of the person's notification centre (`Notification` in `@opsdeck/contract/alerts`; docs/alerts.md). */
  notifications: '/user/topic/notifications',
  // console → server
  requestActiveAgents: '/request/active-agents',
  executeCommand: '/direct/agent-execute-command',
  terminateCommand: '/direct/agent-terminate-command',
  consoleConnect: '/direct/console-connect',
  consoleIdentity: '/direct/console-identity',
  // server → agent
  agentWorkflows: '/user/queue/workflows',
  agentCommands: '/user/queue/commands',
  // agent → server
  agentQueue: '/agent/queue',
  agentWorkflowUpdates: '/agent/workflows',
  agentExecution: '/agent/execution',
  /** Spans of the key's person's activity (`ActivityFrame` in `@opsdeck/contract/activity`; docs/monitor.md). */
  agentActivity: '/agent/activity',
} as const;

/** The tenant-scoped topics a console subscribes to, with `/{t}` or (admin of every company) without. */
export const TENANT_TOPICS = [
  DESTINATIONS.connect,
  DESTINATIONS.disconnect,
  DESTINATIONS.workflows,
  DESTINATIONS.queue,
  DESTINATIONS.executions,
] as const;
export type TenantTopic = (typeof TENANT_TOPICS)[number];

/** `/topic/queue/{t}`, or `/topic/queue` for the consoles that watch every company. */
export const tenantTopic = (topic: TenantTopic, tenantId: string | null) => (tenantId ? `${topic}/${tenantId}` : topic);

/** The path an agent downloads a workflow's file from, with its CONNECT headers. */
export const agentWorkflowFilePath = (workflowId: number) => `/api/agent/workflow/${workflowId}/file`;

const epochOrNull = z.number().int().nonnegative().nullable();
const id = z.number().int().positive();
const safeText = (max: number) => z.string().max(max);

export const QueueStatus = z.enum(['QUEUED', 'EXECUTING']);
export type QueueStatus = z.infer<typeof QueueStatus>;

export const AgentWorkflow = z.object({
  id,
  name: safeText(255),
  lastExecution: epochOrNull,
});
export type AgentWorkflow = z.infer<typeof AgentWorkflow>;

/** An entry of an agent's queue: `id` is the entry's (the agent's own, positive), `workflowId` the workflow's. */
export const QueuedWorkflow = z.object({
  id,
  workflowId: id,
  name: safeText(255),
  status: QueueStatus,
  position: z.number().int().nonnegative(),
  executionStart: epochOrNull,
});
export type QueuedWorkflow = z.infer<typeof QueuedWorkflow>;

export const AgentConnection = z.object({
  sessionId: z.string(),
  tenantId: z.string().nullable(),
  companyName: z.string().nullable(),
  accountId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  macAddress: z.string(),
  hostname: z.string(),
  connectedAt: z.number().int(),
  workflows: z.array(AgentWorkflow),
  queuedWorkflows: z.array(QueuedWorkflow),
});
export type AgentConnection = z.infer<typeof AgentConnection>;

/** Lists the server accepts per message from an agent (a queue longer than this is refused). */
export const MAX_LIST_ITEMS = 500;

const changes = <T extends z.ZodType>(item: T) =>
  z.object({
    added: z.array(item).max(MAX_LIST_ITEMS).default([]),
    updated: z.array(item).max(MAX_LIST_ITEMS).default([]),
    removed: z.array(id).max(MAX_LIST_ITEMS).default([]),
  });

/** Agent → server on `/agent/queue`. */
export const QueueChanges = changes(QueuedWorkflow);
export type QueueChanges = z.infer<typeof QueueChanges>;
/** Server → agent on `/user/queue/workflows`. */
export const WorkflowChanges = changes(AgentWorkflow);
export type WorkflowChanges = z.infer<typeof WorkflowChanges>;
/** Agent → server on `/agent/workflows`. */
export const WorkflowUpdates = z.object({ updated: z.array(AgentWorkflow).max(MAX_LIST_ITEMS) });
export type WorkflowUpdates = z.infer<typeof WorkflowUpdates>;

/** Server → console on `/topic/workflows/{t}` and `/topic/queue/{t}`: an agent's changes. */
export type SessionWorkflowChanges = { sessionId: string } & WorkflowChanges;
export type SessionQueueChanges = { sessionId: string } & QueueChanges;

export const ExecutionStatus = z.enum(['success', 'faulted', 'unknown']);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

/** Agent → server on `/agent/execution` when a run ends; `id` (a UUID the agent makes) makes it idempotent. */
export const ExecutionReport = z.object({
  id: z.uuid(),
  workflowId: id,
  executionStart: z.number().int().nonnegative(),
  executionEnd: z.number().int().nonnegative(),
  statusType: ExecutionStatus,
  errorMessage: safeText(1024).nullable().default(null),
  errorActivity: safeText(255).nullable().default(null),
});
export type ExecutionReport = z.infer<typeof ExecutionReport>;

/**
 * Server → console on `/topic/executions/{t}`: a run was stored as an execution log (sent once per
 * log, never for a resent report), so that the report pages showing today refresh themselves.
 */
export type ExecutionNotice = {
  id: string;
  tenantId: string | null;
  workflowId: number;
  executionStart: number;
  executionEnd: number;
  statusType: ExecutionStatus;
};

/** Console → server. */
export const ExecuteCommand = z.object({ sessionId: z.string().min(1).max(64), workflowId: id });
export type ExecuteCommand = z.infer<typeof ExecuteCommand>;
export const TerminateCommand = z.object({ sessionId: z.string().min(1).max(64), workflowId: id, queueId: id });
export type TerminateCommand = z.infer<typeof TerminateCommand>;

/** Server → agent on `/user/queue/commands`. */
export const AgentCommand = z.discriminatedUnion('command', [
  z.object({ command: z.literal('execute'), workflowId: id }),
  z.object({ command: z.literal('terminate'), workflowId: id, queueId: id }),
]);
export type AgentCommand = z.infer<typeof AgentCommand>;

/** Server → console on `/user/topic/identity`. */
export type ConsoleIdentity = { tenantId: string | null; sessionId: string };
/** Server → console or agent on `/user/topic/errors`: a refused SEND or SUBSCRIBE. */
export type LiveRefusal = { destination: string; key: string; message: string };
