import { z } from 'zod';
import type { ErrorKey } from './errors';
import { idText } from './fields';
import { ordered, rangeShape, TOTAL_HOURS_MAX_DAYS, timeZone } from './reports';

/**
 * The monitor dashboard (spec sections 2, 3 and 7; docs/monitor.md): the sixteen
 * widgets, a user's layout of them, the widget query and what each widget answers.
 */

/** The sixteen widgets, in the spec's order (section 3), with their English titles: the catalogue. */
export const WIDGET_CATALOGUE = [
  { widgetKey: 'action_timeline', widgetTitle: 'Action Timeline' },
  { widgetKey: 'application_frequency', widgetTitle: 'Application Frequency' },
  { widgetKey: 'employee_login_hours', widgetTitle: 'Employee Login Hours' },
  { widgetKey: 'top_applications', widgetTitle: 'Top Applications' },
  { widgetKey: 'active_users', widgetTitle: 'Active Users' },
  { widgetKey: 'application_timeline', widgetTitle: 'Application Timeline' },
  { widgetKey: 'employee_utilization', widgetTitle: 'Employee Utilization' },
  { widgetKey: 'top_statuses', widgetTitle: 'Top Statuses' },
  { widgetKey: 'alerts', widgetTitle: 'Alerts' },
  { widgetKey: 'attendance_and_tardiness', widgetTitle: 'Attendance and Tardiness' },
  { widgetKey: 'hourly_activity', widgetTitle: 'Hourly Activity' },
  { widgetKey: 'top_tasks', widgetTitle: 'Top Tasks' },
  { widgetKey: 'application_duration', widgetTitle: 'Application Duration' },
  { widgetKey: 'break_adherence', widgetTitle: 'Break Adherence' },
  { widgetKey: 'task_productivity', widgetTitle: 'Task Productivity' },
  { widgetKey: 'status_summary', widgetTitle: 'Status Summary' },
] as const;

export const WIDGET_KEYS = WIDGET_CATALOGUE.map((widget) => widget.widgetKey) as [
  (typeof WIDGET_CATALOGUE)[number]['widgetKey'],
  ...(typeof WIDGET_CATALOGUE)[number]['widgetKey'][],
];
export type WidgetKey = (typeof WIDGET_CATALOGUE)[number]['widgetKey'];

export const isWidgetKey = (value: string): value is WidgetKey => (WIDGET_KEYS as readonly string[]).includes(value);

/** A widget's English title, by key. */
export const WIDGET_TITLES = Object.fromEntries(
  WIDGET_CATALOGUE.map((widget) => [widget.widgetKey, widget.widgetTitle]),
) as Record<WidgetKey, string>;

/** The dashboard's grid has two columns (spec section 9). */
export const WIDGET_COLUMNS = [1, 2] as const;
export type WidgetColumn = (typeof WIDGET_COLUMNS)[number];

const notExist: ErrorKey = 'ERROR_WIDGET_NOT_EXIST';
const layoutInvalid: ErrorKey = 'ERROR_WIDGET_LAYOUT_INVALID';

/**
 * A widget key in a body: any string of sane length, so that an unknown key answers
 * ERROR_WIDGET_NOT_EXIST rather than a generic enum error.
 */
const widgetKeyField = () =>
  z
    .string({ error: notExist })
    .max(64, notExist)
    .refine(isWidgetKey, notExist)
    .transform((value) => value as WidgetKey);

/** GET /api/widget: one widget of the catalogue (spec section 3). */
export const Widget = z.object({ widgetKey: z.enum(WIDGET_KEYS), widgetTitle: z.string() }).meta({ id: 'Widget' });
export type Widget = z.infer<typeof Widget>;

/** A user's widget: `widgetOrder` 0 = hidden, else its place (1 first); `widgetColumnNumber` 1 or 2. */
export const VisibleWidget = Widget.extend({
  widgetOrder: z.number().int().min(0),
  widgetColumnNumber: z.number().int().min(1).max(2),
}).meta({ id: 'VisibleWidget' });
export type VisibleWidget = z.infer<typeof VisibleWidget>;

/** One visible widget in the update body: its place (from 1) and column. */
export const WidgetPlacement = z
  .object({
    widgetKey: widgetKeyField(),
    widgetOrder: z.number({ error: layoutInvalid }).int(layoutInvalid).min(1, layoutInvalid).max(1_000, layoutInvalid),
    widgetColumnNumber: z
      .number({ error: layoutInvalid })
      .int(layoutInvalid)
      .min(1, layoutInvalid)
      .max(2, layoutInvalid),
  })
  .meta({ id: 'WidgetPlacement' });
export type WidgetPlacement = z.infer<typeof WidgetPlacement>;

/**
 * POST /api/user/updateVisibleWidgets/{id}: the visible set becomes `currentVisibleWidgets` in
 * the order given (by `widgetOrder`, stored renumbered 1, 2, …), then `toAdd` at the end of
 * column 1; a widget in neither is hidden. A key listed twice (in both lists or in either twice)
 * or two widgets with the same order is ERROR_WIDGET_LAYOUT_INVALID.
 */
export const UpdateVisibleWidgets = z
  .object({
    toAdd: z.array(widgetKeyField(), { error: layoutInvalid }).max(16, layoutInvalid).default([]),
    currentVisibleWidgets: z.array(WidgetPlacement, { error: layoutInvalid }).max(16, layoutInvalid),
  })
  .refine(
    (body) => {
      const keys = [...body.toAdd, ...body.currentVisibleWidgets.map((widget) => widget.widgetKey)];
      return new Set(keys).size === keys.length;
    },
    { message: layoutInvalid, path: ['currentVisibleWidgets'] },
  )
  .refine(
    (body) =>
      new Set(body.currentVisibleWidgets.map((widget) => widget.widgetOrder)).size ===
      body.currentVisibleWidgets.length,
    { message: layoutInvalid, path: ['currentVisibleWidgets'] },
  )
  .meta({ id: 'UpdateVisibleWidgets' });
export type UpdateVisibleWidgets = z.input<typeof UpdateVisibleWidgets>;

/** A user who never chose a layout sees these six (docs/monitor.md, "The layout calls"). */
export const DEFAULT_LAYOUT: readonly { widgetKey: WidgetKey; widgetColumnNumber: WidgetColumn }[] = [
  { widgetKey: 'active_users', widgetColumnNumber: 1 },
  { widgetKey: 'hourly_activity', widgetColumnNumber: 1 },
  { widgetKey: 'top_applications', widgetColumnNumber: 2 },
  { widgetKey: 'employee_login_hours', widgetColumnNumber: 2 },
  { widgetKey: 'top_statuses', widgetColumnNumber: 1 },
  { widgetKey: 'alerts', widgetColumnNumber: 2 },
];

/** Widgets cover at most this many days (the same bound as the agent report's executed time). */
export const MONITOR_MAX_DAYS = TOTAL_HOURS_MAX_DAYS;

const filterId = (key: ErrorKey) => z.preprocess((value) => (value === '' ? undefined : value), idText(key).optional());

/**
 * GET /api/report/monitor/{widgetKey}: `from` and `to` (epoch ms, both included, at most 366
 * days), the optional filters `user`, `department` (with the ones below it) and `role`, and `tz`.
 */
export const WidgetQuery = z
  .object({
    ...rangeShape,
    user: filterId('ERROR_USER_NOT_EXIST'),
    department: filterId('ERROR_DEPARTMENT_NOT_EXIST'),
    role: filterId('ERROR_ROLE_NOT_EXIST'),
    tz: timeZone(),
  })
  .refine(ordered, { message: 'ERROR_REPORT_RANGE_INVALID', path: ['to'] })
  .refine((range) => range.to - range.from < MONITOR_MAX_DAYS * 86_400_000, {
    message: 'ERROR_REPORT_RANGE_TOO_LONG',
    path: ['to'],
  });
export type WidgetQuery = z.infer<typeof WidgetQuery>;

export const WidgetKeyParams = z.object({ widgetKey: z.enum(WIDGET_KEYS, { error: notExist }) });

// The answers (docs/monitor.md, "What each widget answers"). Durations are ms; `name` is the
// person's full name; dates are 'YYYY-MM-DD' in `tz`; times epoch ms.
const ms = () => z.number().int();
const person = { userId: z.number().int(), name: z.string() };

/** online: agent connected now; active: active time in the range; total: people in the filter. */
export const ActiveUsers = z
  .object({ online: z.number().int(), active: z.number().int(), total: z.number().int() })
  .meta({ id: 'ActiveUsers' });

/** Per person and day: first session start, last session end (null while signed in), time signed in. */
export const EmployeeLoginHours = z
  .array(
    z.object({
      ...person,
      date: z.string(),
      firstLogin: ms(),
      lastLogout: ms().nullable(),
      loggedMs: ms(),
    }),
  )
  .meta({ id: 'EmployeeLoginHours' });

/** From the work schedules: scheduled, present, late and absent days, and the time late. */
export const AttendanceAndTardiness = z
  .array(
    z.object({
      ...person,
      scheduledDays: z.number().int(),
      presentDays: z.number().int(),
      lateDays: z.number().int(),
      absentDays: z.number().int(),
      lateMs: ms(),
    }),
  )
  .meta({ id: 'AttendanceAndTardiness' });

/** utilization = active time inside the schedules ÷ scheduled time (null with no schedule). */
export const EmployeeUtilization = z
  .array(
    z.object({
      ...person,
      activeMs: ms(),
      idleMs: ms(),
      scheduledMs: ms(),
      utilization: z.number().nullable(),
    }),
  )
  .meta({ id: 'EmployeeUtilization' });

/** 24 entries, the hour of the day in `tz`, summed over the range. */
export const HourlyActivity = z
  .array(z.object({ hour: z.number().int().min(0).max(23), activeMs: ms(), idleMs: ms() }))
  .meta({ id: 'HourlyActivity' });

/** Newest first, at most 50: sign-ins, sign-outs, status and task changes, idle spans of 10 minutes or more. */
export const ActionTimeline = z
  .array(z.object({ at: ms(), ...person, kind: z.string(), label: z.string() }))
  .meta({ id: 'ActionTimeline' });

/** The 10 applications longest in the foreground. */
export const TopApplications = z
  .array(z.object({ application: z.string(), durationMs: ms() }))
  .meta({ id: 'TopApplications' });

/** The 10 applications brought to the foreground most often. */
export const ApplicationFrequency = z
  .array(z.object({ application: z.string(), count: z.number().int() }))
  .meta({ id: 'ApplicationFrequency' });

/**
 * Per day, the range's 5 longest applications and `Other` (the sum of the rest), which alone has
 * `other: true`: an application may be named "Other" too.
 */
export const ApplicationDuration = z
  .array(z.object({ date: z.string(), application: z.string(), durationMs: ms(), other: z.literal(true).optional() }))
  .meta({ id: 'ApplicationDuration' });

/** The foreground applications as spans: at most 20 people and the latest 500 spans each. */
export const ApplicationTimeline = z
  .array(
    z.object({
      ...person,
      spans: z.array(z.object({ application: z.string(), start: ms(), end: ms() })),
    }),
  )
  .meta({ id: 'ApplicationTimeline' });

/** The statuses with the most time, most first. */
export const TopStatuses = z
  .array(z.object({ statusId: z.number().int(), name: z.string(), color: z.string(), durationMs: ms() }))
  .meta({ id: 'TopStatuses' });

/** Every status with time in the range: people in it, spans, total and average length. */
export const StatusSummary = z
  .array(
    z.object({
      statusId: z.number().int(),
      name: z.string(),
      color: z.string(),
      people: z.number().int(),
      count: z.number().int(),
      durationMs: ms(),
      averageMs: ms(),
    }),
  )
  .meta({ id: 'StatusSummary' });

/** Breaks (status spans whose status has a threshold above 0), those over it, and the excess. */
export const BreakAdherence = z
  .array(z.object({ ...person, breaks: z.number().int(), overThreshold: z.number().int(), overMs: ms() }))
  .meta({ id: 'BreakAdherence' });

/** The 10 tasks with the most time. */
export const TopTasks = z
  .array(z.object({ taskId: z.number().int(), name: z.string(), durationMs: ms() }))
  .meta({ id: 'TopTasks' });

/** During each task's spans: active and idle time, productivity = active ÷ (active + idle). */
export const TaskProductivity = z
  .array(
    z.object({
      taskId: z.number().int(),
      name: z.string(),
      activeMs: ms(),
      idleMs: ms(),
      productivity: z.number().nullable(),
    }),
  )
  .meta({ id: 'TaskProductivity' });

export const ALERT_KINDS = ['late', 'absent', 'break_over', 'idle_long'] as const;

/** Newest first, at most 50. */
export const Alerts = z
  .array(z.object({ at: ms(), ...person, kind: z.enum(ALERT_KINDS), message: z.string() }))
  .meta({ id: 'Alerts' });

/** Each widget's answer, by key. */
export const WIDGET_ANSWERS = {
  active_users: ActiveUsers,
  employee_login_hours: EmployeeLoginHours,
  attendance_and_tardiness: AttendanceAndTardiness,
  employee_utilization: EmployeeUtilization,
  hourly_activity: HourlyActivity,
  action_timeline: ActionTimeline,
  top_applications: TopApplications,
  application_frequency: ApplicationFrequency,
  application_duration: ApplicationDuration,
  application_timeline: ApplicationTimeline,
  top_statuses: TopStatuses,
  status_summary: StatusSummary,
  break_adherence: BreakAdherence,
  top_tasks: TopTasks,
  task_productivity: TaskProductivity,
  alerts: Alerts,
} as const satisfies Record<WidgetKey, z.ZodType>;
export type WidgetAnswer<K extends WidgetKey> = z.infer<(typeof WIDGET_ANSWERS)[K]>;

/** The monitor's calls under /api (spec section 7; docs/monitor.md). */
export const MONITOR_PATHS = {
  widgets: '/widget',
  visibleWidgets: (userId: number) => `/user/getVisibleWidgets/${userId}`,
  updateVisibleWidgets: (userId: number) => `/user/updateVisibleWidgets/${userId}`,
  widget: (widgetKey: WidgetKey) => `/report/monitor/${widgetKey}`,
} as const;
