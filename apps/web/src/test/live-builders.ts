import type { AgentConnection, AgentWorkflow, QueuedWorkflow } from '@opsdeck/contract/live';

/** Factories with overrides for the live channel's shapes. */
export function buildWorkflow(overrides: Partial<AgentWorkflow> = {}): AgentWorkflow {
  const id = overrides.id ?? 1;
  return { id, name: `Workflow ${id}`, lastExecution: null, ...overrides };
}

export function buildQueued(overrides: Partial<QueuedWorkflow> = {}): QueuedWorkflow {
  const id = overrides.id ?? 1;
  return {
    id,
    workflowId: 100 + id,
    name: `Queued ${id}`,
    status: 'QUEUED',
    position: id,
    executionStart: null,
    ...overrides,
  };
}

export function buildAgent(overrides: Partial<AgentConnection> = {}): AgentConnection {
  const sessionId = overrides.sessionId ?? 'agent-1';
  return {
    sessionId,
    tenantId: 'tenant-acme',
    companyName: 'Acme Robotics',
    accountId: 11,
    firstName: 'Grace',
    lastName: 'Hopper',
    macAddress: '00:1A:2B:3C:4D:5E',
    hostname: 'build-01',
    connectedAt: 1_700_000_000_000,
    workflows: [],
    queuedWorkflows: [],
    ...overrides,
  };
}
