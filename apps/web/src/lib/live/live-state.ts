import type {
  AgentConnection,
  AgentWorkflow,
  ConsoleIdentity,
  QueuedWorkflow,
  SessionQueueChanges,
  SessionWorkflowChanges,
} from '@opsdeck/contract/live';

/** What the console knows of the live channel: its own identity and the agents connected now. */
export interface LiveState {
  identity: ConsoleIdentity | null;
  /** In arrival order; each agent's queue is kept sorted by position. */
  agents: readonly AgentConnection[];
}

export type LiveEvent =
  | { type: 'identity'; identity: ConsoleIdentity }
  | { type: 'connect'; agent: AgentConnection }
  | { type: 'disconnect'; sessionId: string }
  | { type: 'activeAgents'; agents: readonly AgentConnection[] }
  | { type: 'workflows'; changes: SessionWorkflowChanges }
  | { type: 'queue'; changes: SessionQueueChanges }
  | { type: 'connectionLost' };

export const EMPTY_LIVE_STATE: LiveState = { identity: null, agents: [] };

/** Spec section 4: a running item is EXECUTING with a position; anything else shows as queued. */
export function isRunning(item: Pick<QueuedWorkflow, 'status' | 'position'>): boolean {
  return item.status === 'EXECUTING' && item.position !== 0;
}

/** The agent's name, or 'Agent User' (passed in, translated) when it has none. */
export function agentName(agent: Pick<AgentConnection, 'firstName' | 'lastName'>, fallback: string): string {
  const name = `${agent.firstName ?? ''} ${agent.lastName ?? ''}`.trim();
  return name || fallback;
}

const byPosition = (a: QueuedWorkflow, b: QueuedWorkflow) => a.position - b.position;

function withSortedQueue(agent: AgentConnection): AgentConnection {
  return { ...agent, queuedWorkflows: [...agent.queuedWorkflows].sort(byPosition) };
}

type Changes<T> = { added?: readonly T[]; updated?: readonly T[]; removed?: readonly number[] };

/**
 * One list's added/updated/removed (spec section 4): an added item whose id is already there
 * replaces it, an update replaces the item with its id (an update of an unknown id is dropped: the
 * spec only replaces matches), and removals go by id.
 */
export function applyChanges<T extends { id: number }>(items: readonly T[], changes: Changes<T>): T[] {
  const removed = new Set(changes.removed ?? []);
  const next = items.filter((item) => !removed.has(item.id));
  const replace = (item: T, addMissing: boolean) => {
    const at = next.findIndex((existing) => existing.id === item.id);
    if (at >= 0) next[at] = item;
    else if (addMissing) next.push(item);
  };
  for (const item of changes.updated ?? []) replace(item, false);
  for (const item of changes.added ?? []) replace(item, true);
  return next;
}

function updateAgent(
  state: LiveState,
  sessionId: string,
  update: (agent: AgentConnection) => AgentConnection,
): LiveState {
  const at = state.agents.findIndex((agent) => agent.sessionId === sessionId);
  if (at < 0) return state;
  const agents = [...state.agents];
  agents[at] = update(agents[at]!);
  return { ...state, agents };
}

/** The live channel's messages applied to the console's state, as spec section 4 lays them out. */
export function liveReducer(state: LiveState, event: LiveEvent): LiveState {
  switch (event.type) {
    case 'identity':
      return { ...state, identity: event.identity };
    case 'connect': {
      const agent = withSortedQueue(event.agent);
      const at = state.agents.findIndex((known) => known.sessionId === agent.sessionId);
      if (at < 0) return { ...state, agents: [...state.agents, agent] };
      const agents = [...state.agents];
      agents[at] = agent;
      return { ...state, agents };
    }
    case 'disconnect':
      return { ...state, agents: state.agents.filter((agent) => agent.sessionId !== event.sessionId) };
    case 'activeAgents':
      return { ...state, agents: event.agents.map(withSortedQueue) };
    case 'workflows':
      return updateAgent(state, event.changes.sessionId, (agent) => ({
        ...agent,
        workflows: applyChanges<AgentWorkflow>(agent.workflows, event.changes),
      }));
    case 'queue':
      return updateAgent(state, event.changes.sessionId, (agent) => ({
        ...agent,
        queuedWorkflows: applyChanges<QueuedWorkflow>(agent.queuedWorkflows, event.changes).sort(byPosition),
      }));
    case 'connectionLost':
      return EMPTY_LIVE_STATE;
  }
}
