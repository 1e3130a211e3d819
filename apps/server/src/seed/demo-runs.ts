import { gaussian, poisson, seededRandom, uuid } from '@opsdeck/agent/random';
import type { ExecutionStatus } from '@opsdeck/contract/live';
import { zonedDays } from '../modules/reports/ranges';
import { type Incident, OUTAGES, type RunStep, runOnce } from './demo-run-outcomes';

/**
 * The runs of the demo's history, planned without the database (demo-history.ts stores them): when
 * each demo workflow is queued (a scheduler's fixed times, a poll every few minutes, or people asking
 * through the working day of the company's time zone), on which robot, and when the company's
 * outages fall; demo-run-outcomes.ts says how each run ends. One seed gives the same runs.
 */

export type HistoryVersion = { number: number; createdAt: number; steps: RunStep[] };
export type HistoryWorkflow = { name: string; versions: HistoryVersion[] };

export type HistoryInput = {
  now: number;
  days: number;
  /** The company's IANA time zone: its working hours and weekends. */
  timeZone: string;
  seed: number;
  workflows: HistoryWorkflow[];
  /** How many robots (keys with a machine) run them: at least one. */
  robots: number;
  /** Scales the runs people ask for (1: as CADENCES says). */
  volume?: number;
};

export type PlannedRun = {
  id: string;
  /** Indexes into the input's workflows and robots. */
  workflow: number;
  robot: number;
  /** The robot's own number of the queue entry. */
  entryId: number;
  version: number;
  queuedAt: number;
  start: number;
  end: number;
  status: ExecutionStatus;
  errorActivity: string | null;
  errorMessage: string | null;
};

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

type Days = 'weekdays' | 'every day' | { weekday: number } | { monthDay: number };
/**
 * `at`: a scheduler queues it at these local times. `every`: a poll every few minutes between two
 * local hours (fewer at the weekend). `perHour`: people ask for it through the working day.
 */
type Cadence =
  | { at: string[]; on: Days }
  | { every: number; from: number; to: number; weekendEvery: number }
  | { perHour: number };

const CADENCES: Record<string, Cadence> = {
  'Invoice intake': { perHour: 0.6 },
  'Invoice approval reminder': { at: ['09:00'], on: 'weekdays' },
  'Post invoices to SAP': { at: ['09:00', '11:00', '13:00', '15:00', '17:00'], on: 'weekdays' },
  'Timesheet consolidation': { at: ['16:00'], on: { weekday: 5 } },
  'New hire accounts': { perHour: 0.08 },
  'Contract archiving': { perHour: 0.3 },
  'Leave balance report': { at: ['07:00'], on: { weekday: 1 } },
  'Carrier booking': { perHour: 0.5 },
  'Tracking updates': { every: 30, from: 7, to: 17, weekendEvery: 180 },
  'Stock reconciliation': { at: ['05:30'], on: 'weekdays' },
  'Reorder alert': { at: ['06:30', '13:30'], on: 'weekdays' },
  'Nightly health check': { at: ['02:00'], on: 'every day' },
  'Licence usage export': { at: ['03:00'], on: { monthDay: 1 } },
};
const ON_DEMAND: Cadence = { perHour: 0.1 };

/** People's requests by local hour: the morning, a lunch dip, the afternoon. Sums to about 10. */
const WORKING_DAY = [0, 0, 0, 0, 0, 0, 0, 0.2, 0.8, 1, 1, 0.9, 0.5, 0.8, 1, 1, 0.8, 0.4, 0.15, 0.05, 0, 0, 0, 0];
/** At the weekend a few people catch up. */
const WEEKEND_SHARE = 0.08;

/**
 * Someone runs a failed scheduled job or request again, a while later, up to twice (a poll's next
 * round is its retry): an outage shows as a run of failures, not one.
 */
const RETRIED = 0.6;
const RETRIES_MAX = 2;
const RETRY_AFTER_MIN = [10, 40] as const;

/** A local calendar day of the company: its UTC start and weekday (0 Sunday). */
type LocalDay = { start: number; weekday: number; monthDay: number };

/** The company's last `days` local days, oldest first, today included (the reports' own day bounds). */
function localDays(now: number, days: number, timeZone: string): LocalDay[] {
  return zonedDays(now - days * 24 * HOUR, now, timeZone).map(({ date, start }) => {
    const midnight = new Date(`${date}T00:00:00Z`);
    return { start, weekday: midnight.getUTCDay(), monthDay: midnight.getUTCDate() };
  });
}

const isWeekday = (day: LocalDay) => day.weekday >= 1 && day.weekday <= 5;

function runsOn(on: Days, day: LocalDay) {
  if (on === 'every day') return true;
  if (on === 'weekdays') return isWeekday(day);
  return 'weekday' in on ? day.weekday === on.weekday : day.monthDay === on.monthDay;
}

/** When the workflow is queued on one local day: a scheduler's times, a poll, or people's requests. */
function requestsOn(cadence: Cadence, day: LocalDay, volume: number, random: () => number): number[] {
  if ('at' in cadence) {
    if (!runsOn(cadence.on, day)) return [];
    return cadence.at.map((time) => {
      const [hours = 0, minutes = 0] = time.split(':').map(Number);
      return day.start + hours * HOUR + minutes * MINUTE;
    });
  }
  if ('every' in cadence) {
    const every = (isWeekday(day) ? cadence.every : cadence.weekendEvery) * MINUTE;
    const times: number[] = [];
    for (let at = day.start + cadence.from * HOUR; at < day.start + cadence.to * HOUR; at += every) times.push(at);
    return times;
  }
  const share = isWeekday(day) ? 1 : WEEKEND_SHARE;
  return WORKING_DAY.flatMap((weight, hour) =>
    Array.from(
      { length: poisson(cadence.perHour * volume * weight * share, random) },
      () => day.start + hour * HOUR + Math.floor(random() * HOUR),
    ),
  );
}

/** The company's outages, on weekdays chosen by the seed. */
function incidentsOf(days: LocalDay[], random: () => number): Incident[] {
  return OUTAGES.map((outage) => {
    const [earliest, latest] = outage.daysAgo;
    let index = days.length - 1 - (earliest + Math.floor(random() * (latest - earliest + 1)));
    while (index > 0 && !isWeekday(days[index]!)) index -= 1;
    const day = days[Math.max(0, index)]!;
    const [from, to] = outage.hours;
    return {
      from: day.start + from * HOUR,
      to: day.start + (to + ((outage.days ?? 1) - 1) * 24) * HOUR,
      fails: outage.fails,
      message: outage.message,
    };
  });
}

/** The version current at `at`: the newest made by then, or the first. */
function versionAt(versions: HistoryVersion[], at: number) {
  let current = versions[0]!;
  for (const version of versions) if (version.createdAt <= at) current = version;
  return current;
}

/**
 * The runs of the last `days` days, oldest first: each queued when its cadence says, started when
 * its robot is free (a robot runs one workflow at a time), and ended before `now`. A workflow runs
 * on its own robot, and the ones people ask for also on the next one.
 */
export function planDemoRuns(input: HistoryInput): PlannedRun[] {
  const random = seededRandom(input.seed);
  const volume = input.volume ?? 1;
  const robots = Math.max(1, input.robots);
  const days = localDays(input.now, input.days, input.timeZone);
  const incidents = incidentsOf(days, random);
  // Some days everything is a little worse (a slow network, a busy SAP), some a little better.
  const luck = days.map(() => Math.exp(0.35 * gaussian(random)));

  const requests: Request[] = [];
  for (const [dayIndex, day] of days.entries()) {
    for (const [workflow, plan] of input.workflows.entries()) {
      const cadence = CADENCES[plan.name] ?? ON_DEMAND;
      for (const at of requestsOn(cadence, day, volume, random))
        requests.push({ at, workflow, day: dayIndex, attempt: 0 });
    }
  }
  requests.sort((a, b) => a.at - b.at || a.workflow - b.workflow);

  const oldest = input.now - input.days * DAY;
  const freeAt = Array.from({ length: robots }, () => 0);
  const entries = Array.from({ length: robots }, () => 0);
  const runs: PlannedRun[] = [];
  for (let next = 0; next < requests.length; next += 1) {
    const request = requests[next]!;
    const plan = input.workflows[request.workflow]!;
    const cadence = CADENCES[plan.name] ?? ON_DEMAND;
    const shared = 'perHour' in cadence && random() < 0.3;
    const robot = (request.workflow + (shared ? 1 : 0)) % robots;
    // The scheduler's and the poll's runs leave on the dot; people's a little after they asked.
    const queuedAt = request.at + ('perHour' in cadence || request.attempt > 0 ? 0 : Math.floor(random() * 1_000));
    const start = Math.max(queuedAt, freeAt[robot]!) + 500 + Math.floor(random() * 4_000);
    const first = plan.versions[0];
    if (!first || queuedAt < oldest || start < first.createdAt || start >= input.now) continue;
    const version = versionAt(plan.versions, start);
    const outcome = runOnce(version.steps, start, luck[request.day]!, incidents, random);
    const end = start + Math.round(outcome.ms);
    if (end >= input.now) continue;
    freeAt[robot] = end;
    entries[robot] = entries[robot]! + 1;
    runs.push({
      id: uuid(random),
      workflow: request.workflow,
      robot,
      entryId: entries[robot]!,
      version: version.number,
      queuedAt,
      start,
      end,
      status: outcome.status,
      errorActivity: outcome.errorActivity,
      errorMessage: outcome.errorMessage,
    });
    if (outcome.status !== 'success' && !('every' in cadence) && request.attempt < RETRIES_MAX && random() < RETRIED) {
      const [least, most] = RETRY_AFTER_MIN;
      const at = end + Math.round((least + random() * (most - least)) * MINUTE);
      insertSorted(requests, next + 1, { ...request, at, attempt: request.attempt + 1 });
    }
  }
  return runs;
}

type Request = { at: number; workflow: number; day: number; attempt: number };

/** Puts a request among the ones still to come, in time order (after those at the same time). */
function insertSorted(requests: Request[], from: number, request: Request) {
  let low = from;
  let high = requests.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (requests[middle]!.at <= request.at) low = middle + 1;
    else high = middle;
  }
  requests.splice(low, 0, request);
}
