import type { ExecutionNotice, ExecutionReport, QueueChanges } from '@opsdeck/contract/live';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../platform/errors';
import { byIds, selectAccounts } from '../accounts/queries';
import * as q from './queries';

/** The connected agent a report came from: its key (account), that key's tenant and the machine. */
export type ExecutingAgent = {
  accountId: number;
  tenantId: string | null;
  macAddress: string;
  hostname?: string | null;
};

/** The longest run accepted (a longer one is a clock gone wrong), and how far ahead of ours an agent's clock may be. */
export const MAX_RUN_MS = 7 * 86_400_000;
export const CLOCK_SKEW_MS = 86_400_000;

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
export function createExecutionLogsService(deps: { db: Db; retentionDays?: number; now?: () => number }) {
  const { db, now = Date.now } = deps;
  const retentionMs = (deps.retentionDays ?? 400) * 86_400_000;

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
    async record(
      agent: ExecutingAgent,
      report: ExecutionReport,
    ): Promise<{ stored: boolean; notice?: ExecutionNotice }> {
      if (report.executionEnd < report.executionStart) {
        throw badRequest('ERROR_GENERAL_INVALID_INPUT', { executionEnd: 'ERROR_GENERAL_INVALID_INPUT' });
      }
      // Each 15 minutes of a run is a row of the executed-time rollup: a run of years is a clock gone wrong.
      if (report.executionEnd - report.executionStart > MAX_RUN_MS || report.executionEnd > now() + CLOCK_SKEW_MS) {
        throw badRequest('ERROR_EXECUTION_REPORT_INVALID', { executionEnd: 'ERROR_EXECUTION_REPORT_INVALID' });
      }
      // Older than the retention: its month is gone (or about to be); acknowledged, not stored.
      if (report.executionStart < now() - retentionMs) return { stored: false };
      const [account] = await selectAccounts(db, byIds([agent.accountId]));
      if (!account || account.tenantId !== agent.tenantId) throw notFound('ERROR_ACCOUNT_NOT_EXIST');
      // A solo licence has no company, hence no workflow of its own.
      const workflow =
        agent.tenantId === null ? undefined : await q.findTenantWorkflow(db, report.workflowId, agent.tenantId);
      if (!workflow) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
      const executor = await executorOf(agent.tenantId, account.fullName, account.emailAddress);
      const workflowVersion = await q.versionAt(db, workflow.id, report.executionStart);

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
        hostname: agent.hostname || null,
        workflowId: workflow.id,
        workflowName: workflow.name,
        workflowVersion,
        executionStart: report.executionStart,
        executionEnd: report.executionEnd,
        statusType: report.statusType,
        errorMessage: storable(report.errorMessage),
        errorActivity: storable(report.errorActivity),
      });
      if (!stored) return { stored };
      const { id, workflowId, executionStart, executionEnd, statusType } = report;
      return {
        stored,
        notice: { id, tenantId: agent.tenantId, workflowId, executionStart, executionEnd, statusType },
      };
    },

    /**
     * A change of an agent's queue (`/agent/queue`): its new entries are runs scheduled now (the
     * report's scheduled count), counted once each; the entries it removed are no longer open.
     */
    async recordQueue(agent: ExecutingAgent, changes: QueueChanges): Promise<{ queued: number }> {
      if (agent.tenantId === null) return { queued: 0 };
      await q.closeQueuedRuns(db, agent.accountId, changes.removed);
      const entries = changes.added.map((entry) => ({ entryId: entry.id, workflowId: entry.workflowId }));
      const queued = await q.insertQueuedRuns(
        db,
        { tenantId: agent.tenantId, accountId: agent.accountId },
        entries,
        now(),
      );
      return { queued };
    },
  };
}
