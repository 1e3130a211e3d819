import type { ExecutionNotice, ExecutionReport, QueueChanges } from '@opsdeck/contract/live';
import type { Db } from '../../db/client';
import { type AppError, badRequest, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { groupCommit } from '../../platform/group-commit';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { byIds, selectAccounts } from '../accounts/queries';
import type { OutboxEvent, WebhookOutbox } from '../webhooks/service';
import type { NewExecutionLog } from './queries';
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

type Pending = { agent: ExecutingAgent; report: ExecutionReport };
type Outcome = { stored: boolean } | { error: AppError };

/**
 * Execution logs (spec section 3; `/agent/execution` in docs/live-channel.md): every run an agent
 * reports, stored once per report, with who ran what where copied in as it is now, and the report
 * rollups kept in the same statement (docs/reports.md). A faulted run is an exception. Reports
 * arriving together are written together (platform/group-commit.ts): a batch reads its keys,
 * workflows with their versions and executors in three queries at once and is stored in one statement.
 */
export function createExecutionLogsService(deps: {
  db: Db;
  /** Told of each committed batch (resource `executions`, per company): the Reports lists keep their pages by it. */
  events?: EventBus;
  retentionDays?: number;
  now?: () => number;
  /** Tells webhooks of each run stored (docs/webhooks.md). */
  outbox?: WebhookOutbox;
}) {
  const { db, events, now = Date.now } = deps;
  const retentionMs = (deps.retentionDays ?? 400) * 86_400_000;

  async function writeBatch(batch: Pending[]): Promise<Outcome[]> {
    const accountIds = [...new Set(batch.map(({ agent }) => agent.accountId))];
    const workflowIds = [...new Set(batch.map(({ report }) => report.workflowId))];
    // Three lookups at once (on PostgreSQL three connections, one round trip's wait).
    const [accountRows, workflows, people] = await Promise.all([
      // Agents of every company report in one batch: each row's tenant is checked against its agent's below.
      selectAccounts(db, EVERY_TENANT, byIds(accountIds)),
      q.workflowsWithVersions(db, EVERY_TENANT, workflowIds),
      q.usersOfAccounts(db, EVERY_TENANT, accountIds),
    ]);
    const accounts = new Map(accountRows.map((row) => [row.id, row]));

    const outcomes: (Outcome | NewExecutionLog)[] = batch.map(({ agent, report }) => {
      const account = accounts.get(agent.accountId);
      if (!account || account.tenantId !== agent.tenantId) return { error: notFound('ERROR_ACCOUNT_NOT_EXIST') };
      const workflow = workflows.get(report.workflowId);
      // A solo licence has no company, hence no workflow of its own; archived workflows still log.
      if (agent.tenantId === null || !workflow || workflow.tenantId !== agent.tenantId)
        return { error: notFound('ERROR_WORKFLOW_NOT_EXIST') };
      // The executor: the company's user with the key's e-mail (archived ones too), or the key's own name.
      const email = account.emailAddress?.trim().toLowerCase();
      const user = email
        ? people.find((person) => person.tenantId === agent.tenantId && person.emailAddress.toLowerCase() === email)
        : undefined;
      const executor = user
        ? { executorUserId: user.id, firstName: user.firstName, lastName: user.lastName, email: user.emailAddress }
        : { executorUserId: null, ...splitFullName(account.fullName), email: account.emailAddress };
      const ofWorkflow = workflow.versions;
      // The version current when the run started (its first one, if the run predates them all).
      const version = ofWorkflow.filter((row) => row.createdAt <= report.executionStart).at(-1) ?? ofWorkflow[0];
      return {
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
        workflowVersion: version?.number ?? null,
        executionStart: report.executionStart,
        executionEnd: report.executionEnd,
        statusType: report.statusType,
        errorMessage: storable(report.errorMessage),
        errorActivity: storable(report.errorActivity),
      } satisfies NewExecutionLog;
    });
    const rows = outcomes.filter((outcome): outcome is NewExecutionLog => 'executionStart' in outcome);
    const stored = await q.insertExecutionLogs(db, rows);
    // Every run of the batch, stored now or before: a report sent again because its answer was
    // lost finds its event already written (the event is named after the run) or writes it then.
    // So a crash between the two statements loses nothing: the agent sends the report again.
    await deps.outbox?.emitAll(
      rows.map(
        (row): OutboxEvent => ({
          id: `msg_run_${row.id.replaceAll('-', '')}_${row.executionStart}`,
          // Both types carry ExecutionEventData; the cast only picks one of the union's members for the compiler.
          type: row.statusType === 'faulted' ? 'execution.faulted' : ('execution.finished' as 'execution.faulted'),
          tenantId: row.tenantId ?? null,
          data: {
            execution: {
              id: row.id,
              workflowName: row.workflowName,
              accountId: row.accountId ?? null,
              status: row.statusType,
              startedAt: row.executionStart,
              finishedAt: row.executionEnd,
              error: row.errorMessage ?? null,
            },
          },
        }),
      ),
    );
    const tenants = new Set(
      rows.filter((row) => stored.has(q.logKey(row.id, row.executionStart))).map((row) => row.tenantId ?? null),
    );
    for (const tenantId of tenants) events?.publish({ resource: 'executions', kind: 'created', ids: [], tenantId });
    // The same report twice in one batch is stored by the first and a resend for the second.
    const answered = new Set<string>();
    return outcomes.map((outcome) => {
      if (!('executionStart' in outcome)) return outcome;
      const key = q.logKey(outcome.id, outcome.executionStart);
      const first = stored.has(key) && !answered.has(key);
      answered.add(key);
      return { stored: first };
    });
  }

  const write = groupCommit(writeBatch, { maxBatch: 500, maxInFlight: 2 });

  return {
    /**
     * Stores the report of a run that ended. The workflow must be one of the agent's company
     * (archived ones included); a report already stored (same id and start) stores nothing:
     * `stored` false. The notice is what consoles are told of a stored run.
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
      const outcome = await write({ agent, report });
      if ('error' in outcome) throw outcome.error;
      if (!outcome.stored) return { stored: false };
      const { id, workflowId, executionStart, executionEnd, statusType } = report;
      return {
        stored: true,
        notice: { id, tenantId: agent.tenantId, workflowId, executionStart, executionEnd, statusType },
      };
    },

    /**
     * A change of an agent's queue (`/agent/queue`): its new entries are runs scheduled now (the
     * report's scheduled count), counted once each; the entries it removed are no longer open.
     */
    async recordQueue(agent: ExecutingAgent, changes: QueueChanges): Promise<{ queued: number }> {
      if (agent.tenantId === null) return { queued: 0 };
      await q.closeQueuedRuns(db, oneTenant(agent.tenantId), agent.accountId, changes.removed);
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
