import type { AgentWorkflow } from '@opsdeck/contract/live';
import type { RequestAuth } from '../../platform/access';
import type { StompSession } from '../../platform/stomp/server';
import type { ExecutingAgent, ExecutionLogsService } from '../execution-logs/service';
import type { AgentIdentity } from './agent-keys';

/** What one live connection is: a console (a signed-in user) or an agent (a licence key on a machine). */
export type ConsoleContext = {
  readonly kind: 'console';
  auth: RequestAuth;
  /** What it connected with, to check again when sessions, users or roles change. */
  readonly credentials: { appKey: string | undefined; token: string; tenantId: string | undefined };
  /** Where it connected from, for the audit records of its commands. */
  readonly origin: { address: string | null; userAgent: string | null };
};
export type AgentContext = {
  readonly kind: 'agent';
  readonly identity: AgentIdentity;
  /** Read before CONNECTED is sent, so that the agent is listed the moment it is told it is connected. */
  readonly workflows: AgentWorkflow[];
};
export type LiveContext = ConsoleContext | AgentContext;
export type LiveSession = StompSession<LiveContext>;

/** Executions and queued runs are stored by the execution-logs area; the channel only hands them over. */
export type ExecutionRecorder = Pick<ExecutionLogsService, 'record' | 'recordQueue'>;

/** The agent as the execution logs name it: its key, its tenant and its machine. */
export const executingAgent = (identity: AgentIdentity): ExecutingAgent => ({
  accountId: identity.key.accountId,
  tenantId: identity.key.tenantId,
  macAddress: identity.macAddress,
  hostname: identity.hostname,
});
