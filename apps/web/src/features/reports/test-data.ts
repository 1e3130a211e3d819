import type { ExecutionException, ExecutionLog } from '@opsdeck/contract/reports';

/** Factories with overrides for the report rows. */
export function buildException(overrides: Partial<ExecutionException> = {}): ExecutionException {
  const id = overrides.id ?? 'run-1';
  return {
    id,
    executionStart: new Date(2026, 4, 6, 9, 30, 5).getTime(),
    workflowId: 4,
    workflowName: 'Invoice intake',
    workflowVersion: 3,
    errorMessage: 'The SAP logon screen did not appear within 30 seconds.',
    errorActivity: 'SAP Logon',
    executedBy: { id: 7, firstName: 'Grace', lastName: 'Hopper' },
    emailAddress: 'grace@acme.test',
    macAddress: '00:1A:2B:3C:4D:5E',
    hostname: 'build-01',
    ...overrides,
  };
}

export function buildLog(overrides: Partial<ExecutionLog> = {}): ExecutionLog {
  const base = buildException(overrides);
  return {
    ...base,
    executionEnd: base.executionStart + 3_723_000,
    statusType: 'success',
    companyName: 'Acme Robotics',
    departmentName: 'Operations',
    errorMessage: null,
    errorActivity: null,
    ...overrides,
  };
}

export const pageOf = <T>(items: T[], total = items.length, page = 1) => ({ items, total, page, size: 10 });
