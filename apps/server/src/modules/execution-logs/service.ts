import type { ExecutionReport } from '@opsdeck/contract/live';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../platform/errors';
import { byIds, selectAccounts } from '../accounts/queries';
import * as q from './queries';

/** The connected agent a report came from: its key (account), that key's tenant and the machine. */
export type ExecutingAgent = { accountId: number; tenantId: string | null; macAddress: string };

/** A key's full name as a first and a last name: the first word, and the rest. */
export function splitFullName(fullName: string | null): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = (fullName ?? '').trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/** PostgreSQL text cannot hold a NUL byte; an agent's error text loses them rather than the whole log. */
const storable = (text: string | null) => (text === null ? null : text.replaceAll('\u0000', ''));

export type ExecutionLogsService = ReturnType<typeof createExecutionLogsService>;

/**
 * Execution logs (spec section 3; `/agent/execution` in ../shared/LIVE.md): every run an agent
 * reports, stored once per report id, with who ran what where copied in as it is now. A faulted
 * run is an exception. Read by the reports (`listExecutionLogs`).
 */
export function createExecutionLogsService(deps: { db: Db }) {
  const { db } = deps;

  /** The executor: the company's user with the key's e-mail, or the key's own name. */
  async function executorOf(tenantId: string | null, fullName: string | null, email: string | null) {
    const user = tenantId !== null && email ? await q.findTenantUserByEmail(db, tenantId, email) : undefined;
    if (user) {
      return { executorUserId: user.id, firstName: user.firstName, lastName: user.lastName, email: user.emailAddress };
    }
    return { executorUserId: null, ...splitFullName(fullName), email };
  }

  return {
    /**
     * Stores the report of a run that ended. The workflow must be one of the agent's company
     * (archived ones included); a report already stored (same id) stores nothing: `stored` false.
     */
    async record(agent: ExecutingAgent, report: ExecutionReport): Promise<{ stored: boolean }> {
      if (report.executionEnd < report.executionStart) {
        throw badRequest('ERROR_GENERAL_INVALID_INPUT', { executionEnd: 'ERROR_GENERAL_INVALID_INPUT' });
      }
      const [account] = await selectAccounts(db, byIds([agent.accountId]));
      if (!account || account.tenantId !== agent.tenantId) throw notFound('ERROR_ACCOUNT_NOT_EXIST');
      // A solo licence has no company, hence no workflow of its own.
      const workflow =
        agent.tenantId === null ? undefined : await q.findTenantWorkflow(db, report.workflowId, agent.tenantId);
      if (!workflow) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
      const executor = await executorOf(agent.tenantId, account.fullName, account.emailAddress);

      const stored = await q.insertExecutionLog(db, {
        id: report.id,
        tenantId: agent.tenantId,
        companyId: account.companyId,
        companyName: account.companyName,
        departmentId: account.departmentId,
        departmentName: account.departmentName,
        accountId: account.id,
        executorUserId: executor.executorUserId,
        executorFirstName: executor.firstName,
        executorLastName: executor.lastName,
        emailAddress: executor.email,
        macAddress: agent.macAddress,
        workflowId: workflow.id,
        workflowName: workflow.name,
        executionStart: report.executionStart,
        executionEnd: report.executionEnd,
        statusType: report.statusType,
        errorMessage: storable(report.errorMessage),
        errorActivity: storable(report.errorActivity),
      });
      return { stored };
    },
  };
}
