import { z } from 'zod';

/**
 * Activity from the agents (docs/monitor.md, "Activity from the agents"): what the
 * person of an agent's key does, as spans of time, SENT on `/agent/activity` as `ActivityFrame`.
 * A span sent again replaces the stored one, and only its end may change.
 */

/** How far back a span may start, how far ahead (the agent's clock), and how long it may last. */
export const ACTIVITY_MAX_AGE_MS = 7 * 86_400_000;
export const ACTIVITY_MAX_AHEAD_MS = 5 * 60_000;
export const ACTIVITY_MAX_SPAN_MS = 24 * 3_600_000;
/** Spans a frame carries: 1 to this many. */
export const ACTIVITY_MAX_EVENTS = 500;
/** An application's display name: 1 to this many characters. */
export const ACTIVITY_APPLICATION_MAX = 255;

export const ACTIVITY_KINDS = ['session', 'app', 'status', 'task', 'idle'] as const;
export const ActivityKind = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof ActivityKind>;

const epochMs = z.number().int().nonnegative();
const span = {
  /** A UUID the agent chooses: the span's identity across resends. */
  id: z.uuid(),
  start: epochMs,
  /** Null while the span goes on. */
  end: epochMs.nullable(),
};
const positiveId = z.number().int().positive().max(2_147_483_647);

export const SessionActivity = z.object({ ...span, kind: z.literal('session') });
export const AppActivity = z.object({
  ...span,
  kind: z.literal('app'),
  application: z.string().min(1).max(ACTIVITY_APPLICATION_MAX),
});
export const StatusActivity = z.object({ ...span, kind: z.literal('status'), statusId: positiveId });
export const TaskActivity = z.object({ ...span, kind: z.literal('task'), taskId: positiveId });
export const IdleActivity = z.object({ ...span, kind: z.literal('idle') });

export const Activity = z.discriminatedUnion('kind', [
  SessionActivity,
  AppActivity,
  StatusActivity,
  TaskActivity,
  IdleActivity,
]);
export type Activity = z.infer<typeof Activity>;

/** Agent → server on `/agent/activity`, with a `receipt`. */
export const ActivityFrame = z.object({ events: z.array(Activity).min(1).max(ACTIVITY_MAX_EVENTS) });
export type ActivityFrame = z.infer<typeof ActivityFrame>;

/** The keys a single span is refused with (each on `/user/topic/errors` with the span's id). */
export const ACTIVITY_REFUSALS = [
  'ERROR_ACTIVITY_SPAN_OUT_OF_RANGE',
  'ERROR_ACTIVITY_SPAN_INVALID',
  'ERROR_STATUS_NOT_EXIST',
  'ERROR_TASK_NOT_EXIST',
  'ERROR_ACTIVITY_SPAN_CHANGED',
] as const;
export type ActivityRefusalKey = (typeof ACTIVITY_REFUSALS)[number];

/** Server → agent on `/user/topic/errors` for a refused span: the frame's other spans are stored. */
export type ActivityRefusal = { destination: string; key: ActivityRefusalKey; message: string; id: string };
