import type { ExecutedBy, ExecutionTimeEntry } from '@opsdeck/contract/reports';

const MINUTE = 60_000;

/** Spec section 2: a run's length as hours:mm:ss (H:mm:ss; hours are not cut at 24). Never negative. */
export function formatRuntime(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

/** Spec section 9: executed time in minutes (ms / 60000) to one decimal, as a number for the chart. */
export function toMinutes(milliseconds: number): number {
  return Math.round(milliseconds / 6_000) / 10;
}

/** Whole hours and the minutes left (rounded), for a total such as '12 h 5 min'. */
export function hoursAndMinutes(milliseconds: number): { hours: number; minutes: number } {
  const totalMinutes = Math.round(Math.max(0, milliseconds) / MINUTE);
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 };
}

/** The executor's name as the tables show it; '-' when the run has none (a deleted user). */
export function executorName(executedBy: ExecutedBy): string {
  const name = `${executedBy.firstName ?? ''} ${executedBy.lastName ?? ''}`.trim();
  return name || '-';
}

export interface ExecutedTimeSummary {
  totalMs: number;
  /** The day with the most executed time, or null when no day has any. */
  busiest: ExecutionTimeEntry | null;
  daysWithRuns: number;
  /** Days of the window up to today (all of them for a past window): the average's divisor. */
  daysSoFar: number;
  averageMs: number;
}

/** The Total Executed Time panel's figures from the per-day entries (`today` is 'YYYY-MM-DD'). */
export function summarizeExecutedTime(entries: readonly ExecutionTimeEntry[], today: string): ExecutedTimeSummary {
  let totalMs = 0;
  let busiest: ExecutionTimeEntry | null = null;
  let daysWithRuns = 0;
  for (const entry of entries) {
    totalMs += entry.executionTime;
    if (entry.executionTime > 0) daysWithRuns += 1;
    if (entry.executionTime > 0 && (!busiest || entry.executionTime > busiest.executionTime)) busiest = entry;
  }
  const daysSoFar = Math.max(1, entries.filter((entry) => entry.date <= today).length);
  return { totalMs, busiest, daysWithRuns, daysSoFar, averageMs: totalMs / daysSoFar };
}
