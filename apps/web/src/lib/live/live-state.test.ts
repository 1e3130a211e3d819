import { describe, expect, it } from 'vitest';
import { buildAgent, buildQueued, buildWorkflow } from '../../test/live-builders';
import { agentName, EMPTY_LIVE_STATE, isRunning, type LiveState, liveReducer } from './live-state';

const withAgents = (...agents: ReturnType<typeof buildAgent>[]): LiveState => ({
  identity: { tenantId: 'tenant-acme', sessionId: 'console-1' },
  agents,
});

const sessions = (state: LiveState) => state.agents.map((agent) => agent.sessionId);
const queueIds = (state: LiveState, at = 0) => state.agents[at]?.queuedWorkflows.map((item) => item.id);

describe('liveReducer', () => {
  it('stores the console identity', () => {
    const state = liveReducer(EMPTY_LIVE_STATE, { type: 'identity', identity: { tenantId: null, sessionId: 's-9' } });
    expect(state.identity).toEqual({ tenantId: null, sessionId: 's-9' });
    expect(state.agents).toEqual([]);
  });

  it('adds a connection of an unknown session, after the ones already there', () => {
    const state = liveReducer(withAgents(buildAgent({ sessionId: 'a' })), {
      type: 'connect',
      agent: buildAgent({ sessionId: 'b' }),
    });
    expect(sessions(state)).toEqual(['a', 'b']);
  });

  it('replaces a connection with the same sessionId, in its place', () => {
    const before = withAgents(buildAgent({ sessionId: 'a', hostname: 'old' }), buildAgent({ sessionId: 'b' }));
    const state = liveReducer(before, { type: 'connect', agent: buildAgent({ sessionId: 'a', hostname: 'new' }) });
    expect(sessions(state)).toEqual(['a', 'b']);
    expect(state.agents[0]?.hostname).toBe('new');
  });

  it('sorts a connecting agent queue by position', () => {
    const agent = buildAgent({
      queuedWorkflows: [buildQueued({ id: 1, position: 3 }), buildQueued({ id: 2, position: 1 })],
    });
    expect(queueIds(liveReducer(EMPTY_LIVE_STATE, { type: 'connect', agent }))).toEqual([2, 1]);
  });

  it('removes a disconnected session and ignores an unknown one', () => {
    const before = withAgents(buildAgent({ sessionId: 'a' }), buildAgent({ sessionId: 'b' }));
    expect(sessions(liveReducer(before, { type: 'disconnect', sessionId: 'a' }))).toEqual(['b']);
    expect(sessions(liveReducer(before, { type: 'disconnect', sessionId: 'zz' }))).toEqual(['a', 'b']);
  });

  it('replaces the whole set with an active-agents list, keeping the identity', () => {
    const before = withAgents(buildAgent({ sessionId: 'a' }), buildAgent({ sessionId: 'b' }));
    const state = liveReducer(before, {
      type: 'activeAgents',
      agents: [
        buildAgent({
          sessionId: 'c',
          queuedWorkflows: [buildQueued({ id: 5, position: 2 }), buildQueued({ id: 6, position: 1 })],
        }),
      ],
    });
    expect(sessions(state)).toEqual(['c']);
    expect(queueIds(state)).toEqual([6, 5]);
    expect(state.identity).toEqual(before.identity);
    expect(sessions(liveReducer(before, { type: 'activeAgents', agents: [] }))).toEqual([]);
  });

  it('applies workflow changes to that session only: added, updated by id, removed', () => {
    const before = withAgents(
      buildAgent({ sessionId: 'a', workflows: [buildWorkflow({ id: 1 }), buildWorkflow({ id: 2 })] }),
      buildAgent({ sessionId: 'b', workflows: [buildWorkflow({ id: 1 })] }),
    );
    const state = liveReducer(before, {
      type: 'workflows',
      changes: {
        sessionId: 'a',
        added: [buildWorkflow({ id: 3, name: 'Fresh' })],
        updated: [buildWorkflow({ id: 1, lastExecution: 42 })],
        removed: [2],
      },
    });
    expect(state.agents[0]?.workflows).toEqual([
      buildWorkflow({ id: 1, lastExecution: 42 }),
      buildWorkflow({ id: 3, name: 'Fresh' }),
    ]);
    expect(state.agents[1]).toBe(before.agents[1]);
  });

  it('lets an added item with an existing id replace it, and drops an update of an unknown id', () => {
    const before = withAgents(buildAgent({ workflows: [buildWorkflow({ id: 1 })] }));
    const state = liveReducer(before, {
      type: 'workflows',
      changes: {
        sessionId: 'agent-1',
        added: [buildWorkflow({ id: 1, name: 'Renamed' })],
        updated: [buildWorkflow({ id: 9 })],
        removed: [],
      },
    });
    expect(state.agents[0]?.workflows).toEqual([buildWorkflow({ id: 1, name: 'Renamed' })]);
  });

  it('applies queue changes and keeps the queue ordered by position', () => {
    const before = withAgents(
      buildAgent({
        queuedWorkflows: [
          buildQueued({ id: 1, position: 1 }),
          buildQueued({ id: 2, position: 2 }),
          buildQueued({ id: 3, position: 3 }),
        ],
      }),
    );
    const state = liveReducer(before, {
      type: 'queue',
      changes: {
        sessionId: 'agent-1',
        added: [buildQueued({ id: 4, position: 1 })],
        updated: [buildQueued({ id: 2, position: 3, status: 'EXECUTING' }), buildQueued({ id: 3, position: 2 })],
        removed: [1],
      },
    });
    expect(queueIds(state)).toEqual([4, 3, 2]);
    expect(state.agents[0]?.queuedWorkflows[2]?.status).toBe('EXECUTING');
  });

  it('ignores changes for a session it does not know', () => {
    const before = withAgents(buildAgent());
    const changes = { sessionId: 'ghost', added: [buildQueued()], updated: [], removed: [] };
    expect(liveReducer(before, { type: 'queue', changes })).toBe(before);
    expect(liveReducer(before, { type: 'workflows', changes: { ...changes, added: [buildWorkflow()] } })).toBe(before);
  });

  it('clears everything when the connection is lost', () => {
    const before = withAgents(buildAgent({ sessionId: 'a' }), buildAgent({ sessionId: 'b' }));
    expect(liveReducer(before, { type: 'connectionLost' })).toEqual({ identity: null, agents: [] });
  });
});

describe('isRunning', () => {
  it('is EXECUTING with a position; QUEUED or position 0 shows as queued', () => {
    expect(isRunning({ status: 'EXECUTING', position: 1 })).toBe(true);
    expect(isRunning({ status: 'EXECUTING', position: 0 })).toBe(false);
    expect(isRunning({ status: 'QUEUED', position: 1 })).toBe(false);
  });
});

describe('agentName', () => {
  it('joins first and last name, or falls back when both are empty', () => {
    expect(agentName({ firstName: 'Grace', lastName: 'Hopper' }, 'Agent User')).toBe('Grace Hopper');
    expect(agentName({ firstName: 'Grace', lastName: '' }, 'Agent User')).toBe('Grace');
    expect(agentName({ firstName: ' ', lastName: '' }, 'Agent User')).toBe('Agent User');
  });
});
