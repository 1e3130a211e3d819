import { randomUUID } from 'node:crypto';
import type { Authority } from '@opsdeck/contract/authorities';
import { type AgentCommand, DESTINATIONS } from '@opsdeck/contract/live';
import type { Executor } from '../../db/client';
import { type AccessControlOptions, authenticateHeaders } from '../../platform/access';
import type { EventBus } from '../../platform/events';
import { oneTenant } from '../../platform/tenancy';
import { findWorkflow } from '../workflows/queries';
import { keyRefusal } from './agent-keys';
import type { Backplane, PresenceEntry } from './backplane';
import { sees } from './console-fan-out';
import type { ConsoleContext, LiveSession } from './live-context';
import { findAgentKey } from './queries';
import { backplaneAway, refusalKey, refuse } from './refusals';

const COMMAND_AUTHORITIES: readonly Authority[] = ['VIEW_WORKFLOW_EVENTS', 'VIEW_WORKFLOW'];

/**
 * A console's commands to an agent (docs/live-channel.md, Commands): who may send them, to which
 * agent, and their way to it, on this instance or through the backplane to the one holding it,
 * with that instance's word on whether it arrived.
 */
export function createCommands(options: {
  db: Executor;
  backplane: Backplane;
  events: Pick<EventBus, 'isLive'>;
  access: Pick<AccessControlOptions, 'appKeys' | 'resolveCaller' | 'resolveTenant'>;
  /** Every agent of every instance, and this instance's sockets, by session id (the events service's). */
  presence: ReadonlyMap<string, PresenceEntry>;
  localAgents: ReadonlyMap<string, LiveSession>;
  /** How long a command handed to another instance may take to reach the agent (ms). */
  confirmMs: number;
}) {
  const { db, backplane, events, access, presence, localAgents, confirmMs: commandConfirmMs } = options;

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
    if (!tenantId || !(await findWorkflow(db, oneTenant(tenantId), workflowId)))
      throw refuse('ERROR_WORKFLOW_NOT_EXIST');
    const refusal = keyRefusal(await findAgentKey(db, entry.keyDigest));
    if (refusal) {
      await backplane.publish({ type: 'evict', accountIds: [entry.agent.accountId], licenseIds: [], key: refusal });
      throw refuse(refusal);
    }
    return entry;
  }

  /** Commands handed to another instance, waiting for its word on them, by command id. */
  const commandResults = new Map<string, (delivered: boolean) => void>();

  /** Writes a command to the agent's socket if it is here and open. */
  function deliverCommand(sessionId: string, command: AgentCommand): boolean {
    const session = localAgents.get(sessionId);
    if (!session || session.closed) return false;
    session.send(DESTINATIONS.agentCommands, command);
    return !session.closed;
  }

  /**
   * Hands a command to its agent (docs/live-channel.md, Commands): straight to the socket when the
   * agent is here, else to the instance holding it, which answers whether it wrote it to the
   * socket. Never lost silently: a command that cannot cross (Redis away, or no answer within
   * commandConfirmMs, after which the holder drops it) is refused ERROR_AGENT_UNREACHABLE.
   */
  async function sendCommand(entry: PresenceEntry, command: AgentCommand) {
    const { sessionId } = entry.agent;
    if (localAgents.has(sessionId) || entry.instanceId === backplane.instanceId) {
      if (!deliverCommand(sessionId, command)) throw refuse('ERROR_AGENT_NOT_CONNECTED');
      return;
    }
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const result = new Promise<boolean | undefined>((resolve) => {
      // A little past the holder's deadline, so that an answer on its way still counts.
      timer = setTimeout(() => resolve(undefined), commandConfirmMs + 500);
      commandResults.set(id, resolve);
    });
    try {
      await backplane.publish({
        type: 'command',
        id,
        from: backplane.instanceId,
        to: entry.instanceId,
        expiresAt: Date.now() + commandConfirmMs,
        sessionId,
        command,
      });
      const delivered = await result;
      if (delivered === undefined) throw refuse('ERROR_AGENT_UNREACHABLE');
      if (!delivered) throw refuse('ERROR_AGENT_NOT_CONNECTED');
    } catch (error) {
      throw backplaneAway(error) ? refuse('ERROR_AGENT_UNREACHABLE') : error;
    } finally {
      clearTimeout(timer);
      commandResults.delete(id);
    }
  }

  /**
   * While this instance may miss other instances' events (Redis away), a sign-out or a role change
   * made elsewhere may not have reached it: a command reads its sender's session again first.
   */
  async function commandSender(session: LiveSession) {
    const context = session.context as ConsoleContext;
    if (events.isLive?.() !== false) return context;
    try {
      context.auth = await authenticateHeaders(access, context.credentials);
    } catch (err) {
      // A database or Redis away is not a sign-out (the console keeps its channel, the command is
      // refused as unavailable), nor is a bug (refused as internal, and logged by the transport).
      const key = refusalKey(err);
      if (key !== undefined && key !== 'ERROR_SERVICE_UNAVAILABLE') session.close(key);
      throw err;
    }
    return context;
  }

  return {
    commandTarget,
    commandSender,
    sendCommand,
    deliverCommand,
    /** The holder's word on a command this instance sent (`command-result`). */
    settle: (id: string, delivered: boolean) => commandResults.get(id)?.(delivered),
  };
}
