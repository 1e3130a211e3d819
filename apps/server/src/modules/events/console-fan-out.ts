import { type AgentConnection, DESTINATIONS, type TenantTopic, tenantTopic } from '@opsdeck/contract/live';
import type { PresenceEntry } from './backplane';
import type { ConsoleContext, LiveSession } from './live-context';

/** The tenant a console watches; null: an admin watching every company. */
export const tenantOf = (context: ConsoleContext) => context.auth.tenantId;
/** Whether a console acting on `scope` (null: every company) sees an agent of `agentTenant`. */
export const watches = (scope: string | null, agentTenant: string | null) => scope === null || scope === agentTenant;
export const sees = (context: ConsoleContext, agentTenant: string | null) => watches(tenantOf(context), agentTenant);

/**
 * What the consoles of this instance are told of the agents (docs/live-channel.md, Consoles): each
 * tenant topic's messages to the consoles that may see them, and `/topic/active-agents`, the whole
 * list of a console's scope, coalesced.
 */
export function createConsoleFanOut(options: {
  /** Every agent of every instance, by session id (the events service's). */
  presence: ReadonlyMap<string, PresenceEntry>;
  /** This instance's consoles. */
  consoles: ReadonlySet<LiveSession>;
  activeAgentsEveryMs: number;
}) {
  const { presence, consoles, activeAgentsEveryMs } = options;
  const pendingLists = new Set<LiveSession>();
  let listTimer: NodeJS.Timeout | undefined;

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
    const every = activeAgentsEveryMs;
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

  return {
    agentsSeenBy,
    toConsoles,
    scheduleActiveAgents,
    /** A console gone: no list is sent to it. */
    forget: (session: LiveSession) => pendingLists.delete(session),
    stop() {
      if (listTimer) clearTimeout(listTimer);
    },
  };
}
