import {
  ExecutionException,
  ExecutionExceptionPage,
  ExecutionLog,
  ExecutionLogListQuery,
  ExecutionLogPage,
  ExecutionTimeEntry,
  Metrics,
  REPORT_PATHS,
  ReportRange,
  TotalHoursQuery,
  UseCount,
  UseCountsQuery,
} from '@opsdeck/contract/reports';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { sendCsv } from '../../platform/csv';
import type { ReportsService } from './service';

const tags = ['reports'];

const RANGE =
  '`from` and `to` are epoch milliseconds, both included (400 ERROR_REPORT_RANGE_INVALID when missing, not whole numbers, or `from` after `to`). ' +
  "Company users read their company; admins every company's, or X-Tenant-Id's.";

const LIST =
  'Runs whose execution start is in [from, to], newest first (ties by id; `sort=executionStart,asc` for oldest first). ' +
  'Without `page`: a plain array of at most `limit` (1 to 1000, default 100; else 400 ERROR_REPORT_LIMIT_INVALID). ' +
  'With `page` (and `size`, 1 to 100, default 10): `{ items, total, page, size }`. ' +
  '`search`: case-insensitive substring of';

const CSV =
  'With `format=csv`: every matching row (page, size and limit ignored) as an RFC 4180 `text/csv` attachment named ' +
  '`<list>-<from>-<to>.csv`, with a header row, times in ISO 8601 UTC, and text cells starting with = + - @, tab or CR ' +
  'prefixed with an apostrophe (formula injection; docs/reports.md). `tz` (IANA name, default UTC): the zone in which ' +
  'the search matches the execution end as shown (YYYY/MM/DD HH:mm:ss).';

export const reportRoutes: FastifyPluginAsyncZod<{ reports: ReportsService }> = async (app, { reports }) => {
  app.get(
    REPORT_PATHS.metrics,
    {
      config: { access: access.anyOf('ACCESS_AGENT_REPORT_TAB') },
      schema: {
        tags,
        summary: "The agent report's counts: runs completed and failed, and runs scheduled, in a range",
        description: `Runs that started in the range and succeeded (completedWorkflowCount) or faulted (failedWorkflowCount), and runs queued on an agent in it (scheduledWorkflowCount), exact to the millisecond. ${RANGE}`,
        querystring: ReportRange,
        response: { 200: Metrics },
      },
    },
    async (request) => reports.metrics(requireAuth(request), request.query),
  );

  app.get(
    REPORT_PATHS.useCounts,
    {
      config: { access: access.anyOf('ACCESS_AGENT_REPORT_TAB') },
      schema: {
        tags,
        summary: 'The most used workflows of a range',
        description: `Runs per workflow (every outcome) that started in the range, most first (ties by name), at most \`limit\` (1 to 1000, default 10); the workflow's current name, archived ones included. ${RANGE}`,
        querystring: UseCountsQuery,
        response: { 200: UseCount.array() },
      },
    },
    async (request) => reports.useCounts(requireAuth(request), request.query),
  );

  app.get(
    REPORT_PATHS.totalHours,
    {
      config: { access: access.anyOf('ACCESS_AGENT_REPORT_TAB') },
      schema: {
        tags,
        summary: 'Executed time per day of a time zone',
        description: `One entry per calendar day of \`tz\` (IANA name, default UTC; else 400 ERROR_REPORT_TIME_ZONE_INVALID) from the day holding \`from\` to the day holding \`to\`, days without runs included: \`date\` (YYYY-MM-DD) and \`executionTime\`, the milliseconds runs spent executing in that whole day (a run over midnight counts in both days; the day is not cut at from or to; 23 and 25 hours when clocks change). At most 366 days (400 ERROR_REPORT_RANGE_TOO_LONG). ${RANGE}`,
        querystring: TotalHoursQuery,
        response: { 200: ExecutionTimeEntry.array() },
      },
    },
    async (request) => reports.totalHours(requireAuth(request), request.query),
  );

  app.get(
    REPORT_PATHS.exceptions,
    {
      config: { access: access.anyOf('VIEW_ERROR_LOGS', 'ACCESS_AGENT_REPORT_TAB') },
      schema: {
        tags,
        summary: 'Exceptions: the faulted runs of a range',
        description: `${LIST} the error message, activity, workflow name, e-mail, MAC address or executor's name. ${CSV} ${RANGE}`,
        querystring: ExecutionLogListQuery,
        response: { 200: z.union([ExecutionException.array(), ExecutionExceptionPage]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format === 'csv') return sendCsv(reply, reports.csv('exceptions', auth, request.query));
      return reports.exceptions(auth, request.query);
    },
  );

  app.get(
    REPORT_PATHS.logs,
    {
      config: { access: access.anyOf('VIEW_ERROR_LOGS') },
      schema: {
        tags,
        summary: 'Execution logs: the runs of a range, every outcome',
        description: `${LIST} the exceptions' fields, the status, company and department names, or the execution end as shown in \`tz\`. ${CSV} ${RANGE}`,
        querystring: ExecutionLogListQuery,
        response: { 200: z.union([ExecutionLog.array(), ExecutionLogPage]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format === 'csv') return sendCsv(reply, reports.csv('logs', auth, request.query));
      return reports.logs(auth, request.query);
    },
  );
};
