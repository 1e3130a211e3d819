import type {
  AgentCommand,
  AgentConnection,
  ExecutionNotice,
  QueueChanges,
  WorkflowChanges,
} from '@opsdeck/contract/live';

/**
 * What the server instances tell each other about the live channel (docs/live-channel.md,
 * "Several instances").
 * Every instance keeps the whole presence (every agent of every instance) in memory, built from
 * these messages; each relays them to its own consoles, and the instance holding an agent's
 * socket delivers the commands meant for it. Without REDIS_URL the backplane is a loopback
 * (`createLocalBackplane`); with it, Redis publish/subscribe plus a snapshot of the presence for
 * instances that start later (`redis-backplane.ts`).
 */
export type BackplaneMessage =
  | { type: 'agent-up'; instanceId: string; agent: AgentConnection; keyDigest: string }
  | { type: 'agent-down'; sessionId: string; tenantId: string | null }
  | { type: 'agent-workflows'; sessionId: string; tenantId: string | null; changes: WorkflowChanges }
  | { type: 'agent-queue'; sessionId: string; tenantId: string | null; changes: QueueChanges }
  /**
   * A console's command for the agent `sessionId`, which instance `to` holds; `from` is told how it
   * went (`command-result`). The holder drops it after `expiresAt` (epoch ms): past it, `from` has
   * told the console it did not reach the agent.
   */
  | {
      type: 'command';
      id: string;
      from: string;
      to: string;
      expiresAt: number;
      sessionId: string;
      command: AgentCommand;
    }
  | { type: 'command-result'; id: string; to: string; delivered: boolean }
  /**
   * The agents `instanceId` holds now, said when it is back after an outage (the others drop
   * those of its agents that left meanwhile, unannounced); `ask`: every other instance answers
   * with its own, because this one may have missed their departures.
   */
  | { type: 'roster'; instanceId: string; sessionIds: readonly string[]; ask: boolean }
  /** A run stored as an execution log: the report pages showing today refresh (`/topic/executions`). */
  | { type: 'execution'; notice: ExecutionNotice }
  /** Disconnect, wherever they are, the agents of these accounts (or of every account of these licences), with this error key. */
  | { type: 'evict'; accountIds: readonly number[]; licenseIds: readonly number[]; key: string };

export type PresenceEntry = { instanceId: string; keyDigest: string; agent: AgentConnection };

export type Backplane = {
  readonly instanceId: string;
  /** Delivers to every instance, this one included (after the returned promise settles, this one has seen it). */
  publish: (message: BackplaneMessage) => Promise<void>;
  /** One handler; called for every message, this instance's own too, in publish order per instance. */
  onMessage: (handler: (message: BackplaneMessage) => void) => void;
  /** The presence an instance starting now should load (every live instance's agents). */
  snapshot: () => Promise<PresenceEntry[]>;
  /** Keep the shared presence snapshot in step (no-ops locally). */
  saveAgent: (entry: PresenceEntry) => Promise<void>;
  deleteAgent: (sessionId: string) => Promise<void>;
  /** Called with an instance that stopped answering (its agents are gone); never for this one. */
  onInstanceGone: (handler: (instanceId: string) => void) => void;
  /**
   * Called when this instance is back in the shared state after it may have dropped out of it (Redis
   * was away, the subscription was lost, its liveness key lapsed and other instances dropped its
   * agents, or a call here was refused with 503, a snapshot at start included): the events service
   * re-saves and re-announces its own agents, and reloads the snapshot (messages of other instances
   * may have been missed). Not called after a start that went well. Optional: never called locally.
   */
  onReconnect?: (handler: () => void) => void;
  /**
   * At start: resolves true once this instance hears the others' messages, false if it cannot yet
   * (its connection failed, or `timeoutMs` passed). Until then a message sent to it (a console's
   * command for one of its agents) would be lost, so the server waits for it before it listens.
   * A start that could not wait counts as a gap: onReconnect runs once it hears. Optional: a local
   * backplane always hears.
   */
  whenSubscribed?: (timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

/** One process: messages loop straight back, presence lives only in the events service's memory. */
export function createLocalBackplane(instanceId = 'local'): Backplane {
  let handler: (message: BackplaneMessage) => void = () => {};
  return {
    instanceId,
    publish: async (message) => handler(message),
    onMessage: (next) => {
      handler = next;
    },
    snapshot: async () => [],
    saveAgent: async () => {},
    deleteAgent: async () => {},
    onInstanceGone: () => {},
    onReconnect: () => {},
    close: async () => {},
  };
}
