import {
  ArchivedSchedules,
  ArchiveSchedules,
  CreateSchedules,
  Schedule,
  ScheduleListQuery,
  UpdateSchedules,
} from '@opsdeck/contract/schedules';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import { type CsvTable, csvAnswer, csvDescription, isoTime, sendTableCsv } from '../../platform/csv-export';
import type { SchedulesService } from './service';

const tags = ['schedules'];

/** The schedules page as a file (docs/csv-export.md): the shift's start and end in ISO 8601 UTC. */
const SCHEDULES_CSV: CsvTable<Schedule> = {
  table: 'schedules',
  columns: {
    user: (row) => `${row.firstName} ${row.lastName}`,
    start: (row) => isoTime(row.scheduleStart),
    end: (row) => isoTime(row.scheduleEnd),
  },
};

export const scheduleRoutes: FastifyPluginAsyncZod<{ schedules: SchedulesService }> = async (app, { schedules }) => {
  app.get(
    '/schedule',
    {
      config: { access: access.anyOf('VIEW_SCHEDULE', 'ACCESS_SCHEDULE_TAB') },
      schema: {
        tags,
        summary: 'Schedules overlapping a range, by start then name',
        description: csvDescription(
          '`from` and `to` are epoch milliseconds (a schedule overlapping the range is included); `userName` matches part of the full name, case-insensitively. Archived schedules are left out. An admin without X-Tenant-Id sees every company.',
        ),
        querystring: ScheduleListQuery,
        response: { 200: csvAnswer(Schedule.array()) },
      },
    },
    async (request, reply) => {
      const rows = await schedules.list(requireAuth(request), request.query);
      return request.query.format === 'csv' ? sendTableCsv(reply, SCHEDULES_CSV, rows) : rows;
    },
  );

  app.post(
    '/schedule',
    {
      config: { access: access.anyOf('CREATE_SCHEDULE'), audit: audit.action('schedule.create') },
      schema: {
        tags,
        summary: 'Create schedules: one record per user per day',
        description:
          'At most 5000 records; every user must belong to the tenant and not be archived. All are created or none.',
        body: CreateSchedules,
        response: { 201: Schedule.array() },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return schedules.create(requireAuth(request), request.body);
    },
  );

  app.put(
    '/schedule',
    {
      config: { access: access.anyOf('EDIT_SCHEDULE'), audit: audit.action('schedule.update') },
      schema: {
        tags,
        summary: 'New times for schedules that start later than 14 days from now',
        description:
          'ERROR_SCHEDULE_LOCKED (409) and nothing changes when any schedule, or its new start, is within 14 days.',
        body: UpdateSchedules,
        response: { 200: Schedule.array() },
      },
    },
    async (request) => schedules.update(requireAuth(request), request.body),
  );

  app.patch(
    '/schedule',
    {
      config: { access: access.anyOf('DELETE_SCHEDULE'), audit: audit.action('schedule.archive') },
      schema: {
        tags,
        summary: 'Archive schedules that start later than now',
        description:
          'The body is a plain array of schedule ids. ERROR_SCHEDULE_LOCKED (409) and nothing changes when any has started.',
        body: ArchiveSchedules,
        response: { 200: ArchivedSchedules },
      },
    },
    async (request) => schedules.archive(requireAuth(request), request.body),
  );
};
