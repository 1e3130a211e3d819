import type { Activity } from '@opsdeck/contract/activity';
import { gaussian, seededRandom, uuid } from './random';

/**
 * A person's working days as activity spans (docs/monitor.md, "The simulator and the demo"): one
 * pure planner shared by the live agents (which send the spans as their times come) and the demo
 * seed (which stores the last 30 days of them). The same person, schedule, statuses and tasks give
 * the same spans with the same ids, so a live agent takes over today's spans from the seed.
 */

export interface WorkdaySchedule {
  start: number;
  end: number;
}

export interface WorkdayStatus {
  id: number;
  name: string;
  /** Minutes; above 0: a break whose length is watched (break_adherence). */
  threshold: number;
  trackIdle: boolean;
}

export interface WorkdayTask {
  id: number;
  name: string;
  statusId: number;
}

export interface Workdays {
  /** The person's seed (the demo uses the key's e-mail, lower-case): each day is drawn from it and the schedule's start. */
  seed: string;
  schedules: WorkdaySchedule[];
  /** The statuses the person may be in (see `statusesFor`). */
  statuses: WorkdayStatus[];
  /** The company's tasks; those of the statuses above are worked on. */
  tasks: WorkdayTask[];
}

/** A person's seed from their key's e-mail: the live agent and the demo seed draw the same days from it. */
export const personSeed = (emailAddress: string) => emailAddress.trim().toLowerCase();

/** A planned span: an activity span with its planned end. */
export type PlannedSpan = Activity & { end: number };

/** A planned span before its id (Omit over each kind of the union). */
type NewSpan = PlannedSpan extends infer S ? (S extends PlannedSpan ? Omit<S, 'id'> : never) : never;

export type DayOutcome = 'present' | 'late' | 'absent';

export interface PlannedDay {
  schedule: WorkdaySchedule;
  outcome: DayOutcome;
  /** The session's start, null when absent. */
  arrival: number | null;
  spans: PlannedSpan[];
}

const SECOND = 1_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** How often things happen (per day, or per break). */
export const WORKDAY_RATES = {
  absent: 0.05,
  late: 0.08,
  /** A break over its status's threshold. */
  breakOver: 0.1,
  /** An idle stretch of 35 to 70 minutes in a working block. */
  idleHour: 0.07,
} as const;

/** Arrivals and departures: at most this far from the schedule's edges (late arrivals aside). */
export const EDGE_MINUTES = {
  early: 10,
  onTime: 4.5,
  lateMin: 10,
  lateMax: 60,
  leaveEarly: 12,
  leaveLate: 10,
} as const;

/** Applications that fit the words of a task's (or status's) name, most used first. */
const APPLICATIONS: [RegExp, string[]][] = [
  [/stand-?up|meeting|call/i, ['Teams', 'Outlook']],
  [/course|training|compliance/i, ['Chrome', 'Teams', 'Acrobat Reader']],
  [/queue/i, ['SAP GUI', 'Excel', 'Outlook']],
  [/follow-?up|case/i, ['Salesforce', 'Outlook', 'Teams']],
  [/operations|dispatch|warehouse|logistic/i, ['SAP GUI', 'Excel', 'Chrome']],
  [/finance|billing|invoice|revenue|coding|denial/i, ['SAP GUI', 'Excel', 'Outlook']],
  [/customer|care|renewal|polic/i, ['Salesforce', 'Outlook', 'Teams']],
  [/claim|fraud|underwrit/i, ['Salesforce', 'Excel', 'Acrobat Reader', 'Chrome']],
  [/patient|clinical|record|health|verification/i, ['Epic', 'Excel', 'Outlook']],
  [/review/i, ['Excel', 'Word', 'Outlook']],
  [/backlog/i, ['Chrome', 'Excel']],
];
const EVERYDAY = ['Outlook', 'Teams', 'Chrome'];
const DEFAULT_APPS = ['Outlook', 'Excel', 'Chrome', 'Teams'];

/** The applications that fit a name (a task's, else its status's): keyword matches, else the everyday ones. */
export function applicationsFor(name: string): string[] {
  const found: string[] = [];
  for (const [words, apps] of APPLICATIONS) if (words.test(name)) for (const app of apps) found.push(app);
  return found.length ? [...new Set(found)] : DEFAULT_APPS;
}

/**
 * The statuses a person works with: the built-in ones and those of their department or a
 * department above it (a status belongs to one department; the demo gives each top department its own).
 */
export function statusesFor<T extends WorkdayStatus & { departmentId: number; builtIn?: boolean }>(
  statuses: T[],
  departmentChain: number[],
): T[] {
  const mine = statuses.filter((status) => status.builtIn || departmentChain.includes(status.departmentId));
  return mine.length ? mine : statuses;
}

/** A department and the ones above it, nearest first. */
export function departmentChain(departments: { id: number; parentId: number | null }[], id: number | null): number[] {
  const byId = new Map(departments.map((department) => [department.id, department]));
  const chain: number[] = [];
  for (let at = id === null ? undefined : byId.get(id); at && !chain.includes(at.id); ) {
    chain.push(at.id);
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return chain;
}

// ── randomness ─────────────────────────────────────────────────────────────────────────────

/** cyrb53-style 32-bit hash of a text: the seed of one person's day. */
export function hashSeed(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const pick = <T>(random: () => number, items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const toSecond = (ms: number) => Math.round(ms / SECOND) * SECOND;

// ── the day ────────────────────────────────────────────────────────────────────────────────

type Roles = {
  work: WorkdayStatus | undefined;
  breaks: WorkdayStatus[];
  meetings: WorkdayStatus[];
  focus: WorkdayStatus[];
  tasksOf: Map<number, WorkdayTask[]>;
};

/** Which statuses are for work, breaks, meetings and focused work (by threshold, idle tracking and name). */
function rolesOf(statuses: WorkdayStatus[], tasks: WorkdayTask[]): Roles {
  const sorted = [...statuses].sort((a, b) => a.id - b.id);
  const watched = sorted.filter((status) => status.threshold > 0);
  const away = watched.filter((status) => !status.trackIdle);
  const breaks = away.filter((status) => /break|lunch|pause|rest/i.test(status.name));
  const tasksOf = new Map<number, WorkdayTask[]>();
  for (const task of [...tasks].sort((a, b) => a.id - b.id)) {
    if (!sorted.some((status) => status.id === task.statusId)) continue;
    tasksOf.set(task.statusId, [...(tasksOf.get(task.statusId) ?? []), task]);
  }
  return {
    work:
      sorted.find((status) => status.threshold === 0 && status.trackIdle) ??
      sorted.find((status) => status.threshold === 0 && !/offline/i.test(status.name)),
    breaks: breaks.length ? breaks : away.slice(0, 1),
    meetings: away.filter((status) => !breaks.includes(status) && /meet|call/i.test(status.name)),
    focus: watched.filter((status) => status.trackIdle),
    tasksOf,
  };
}

type Block = { start: number; end: number; status: WorkdayStatus | undefined; isBreak: boolean; idleHour?: boolean };

/**
 * One schedule's day: absent (no spans), or a session from about the schedule's start (now and
 * then late) to about its end, in a working status with its tasks, one or two breaks (now and then
 * over their threshold), perhaps a meeting or some focused work, the applications of each task,
 * and idle stretches while the status tracks idle. `notBefore`: the previous day's last moment.
 */
export function planDay(
  schedule: WorkdaySchedule,
  statuses: WorkdayStatus[],
  tasks: WorkdayTask[],
  seed: string,
  notBefore = Number.NEGATIVE_INFINITY,
): PlannedDay {
  const random = seededRandom(hashSeed(`${seed}|${schedule.start}`));
  const absentDay: PlannedDay = { schedule, outcome: 'absent', arrival: null, spans: [] };
  const roll = random();
  if (roll < WORKDAY_RATES.absent || !(schedule.end > schedule.start)) return absentDay;
  const late = roll < WORKDAY_RATES.absent + WORKDAY_RATES.late;
  const offset = late
    ? EDGE_MINUTES.lateMin + random() * (EDGE_MINUTES.lateMax - EDGE_MINUTES.lateMin)
    : clamp(gaussian(random) * 3 - 1, -EDGE_MINUTES.early, EDGE_MINUTES.onTime);
  const arrival = toSecond(Math.max(schedule.start + offset * MINUTE, notBefore + MINUTE));
  let departure = toSecond(
    schedule.end + clamp(gaussian(random) * 4, -EDGE_MINUTES.leaveEarly, EDGE_MINUTES.leaveLate) * MINUTE,
  );
  departure = Math.min(departure, arrival + DAY - MINUTE);
  if (departure - arrival < 5 * MINUTE) {
    if (arrival + 5 * MINUTE > schedule.end + EDGE_MINUTES.leaveLate * MINUTE) return absentDay;
    departure = arrival + 5 * MINUTE;
  }
  const outcome: DayOutcome = late ? 'late' : 'present';
  const spans: PlannedSpan[] = [];
  const add = (span: NewSpan) => {
    if (span.end > span.start) spans.push({ id: uuid(random), ...span } as PlannedSpan);
  };
  add({ kind: 'session', start: arrival, end: departure });

  const roles = rolesOf(statuses, tasks);
  const length = departure - arrival;

  // The day's special blocks: breaks, a meeting, focused work; each with its length.
  const specials: { status: WorkdayStatus; ms: number; isBreak: boolean }[] = [];
  const breakStatus = roles.breaks.length ? pick(random, roles.breaks) : undefined;
  const breakCount = length < 3 * 3_600_000 ? (length < 90 * MINUTE ? 0 : 1) : 1 + (random() < 0.5 ? 1 : 0);
  for (let i = 0; breakStatus && i < breakCount; i += 1) {
    const over = random() < WORKDAY_RATES.breakOver;
    const minutes = breakStatus.threshold * (over ? 1.25 + random() * 1.5 : 0.4 + random() * 0.55);
    specials.push({ status: breakStatus, ms: toSecond(minutes * MINUTE), isBreak: true });
  }
  if (roles.meetings.length && random() < 0.45) {
    const meeting = pick(random, roles.meetings);
    specials.push({
      status: meeting,
      ms: toSecond(meeting.threshold * (0.25 + random() * 0.5) * MINUTE),
      isBreak: false,
    });
  }
  for (const focus of roles.focus) {
    const chance = /train|course/i.test(focus.name) ? 0.15 : 0.6;
    if (random() < chance) {
      specials.push({
        status: focus,
        ms: toSecond(focus.threshold * (0.5 + random() * 0.45) * MINUTE),
        isBreak: false,
      });
    }
  }
  // Shuffled, and never more than half the day.
  for (let i = specials.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [specials[i], specials[j]] = [specials[j]!, specials[i]!];
  }
  while (specials.length && specials.reduce((sum, item) => sum + item.ms, 0) > length / 2) specials.pop();

  // Work chunks between them, of random shares of the rest.
  const workMs = length - specials.reduce((sum, item) => sum + item.ms, 0);
  const weights = Array.from({ length: specials.length + 1 }, () => 0.5 + random());
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const blocks: Block[] = [];
  let cursor = arrival;
  for (let i = 0; i <= specials.length; i += 1) {
    const chunkEnd = i === specials.length ? departure : toSecond(cursor + (workMs * weights[i]!) / total);
    blocks.push({ start: cursor, end: chunkEnd, status: roles.work, isBreak: false });
    cursor = chunkEnd;
    const special = specials[i];
    if (special) {
      const end = Math.min(departure, cursor + special.ms);
      blocks.push({ start: cursor, end, status: special.status, isBreak: special.isBreak });
      cursor = end;
    }
  }
  // Now and then a long idle stretch, in the longest working block that idles.
  if (random() < WORKDAY_RATES.idleHour) {
    const candidates = blocks.filter((block) => block.status?.trackIdle && !block.isBreak);
    const longest = candidates.sort((a, b) => b.end - b.start - (a.end - a.start))[0];
    if (longest && longest.end - longest.start >= 80 * MINUTE) longest.idleHour = true;
  }

  for (const block of blocks.sort((a, b) => a.start - b.start)) {
    if (block.end <= block.start) continue;
    if (block.status) add({ kind: 'status', start: block.start, end: block.end, statusId: block.status.id });
    if (block.isBreak) continue;
    const own = block.status ? (roles.tasksOf.get(block.status.id) ?? []) : [];
    // Tasks in turn, 40 to 110 minutes each; the applications of the task at hand.
    let at = block.start;
    let previousTask: WorkdayTask | undefined;
    let previousApp: string | undefined;
    while (at < block.end) {
      let task: WorkdayTask | undefined;
      let taskEnd = block.end;
      if (own.length) {
        const choices = own.length > 1 ? own.filter((item) => item !== previousTask) : own;
        task = pick(random, choices);
        taskEnd = toSecond(at + (40 + random() * 70) * MINUTE);
        if (taskEnd > block.end - 5 * MINUTE) taskEnd = block.end;
        add({ kind: 'task', start: at, end: taskEnd, taskId: task.id });
        previousTask = task;
      }
      const apps = applicationsFor(task?.name ?? block.status?.name ?? '');
      for (let appAt = at; appAt < taskEnd; ) {
        let appEnd = toSecond(appAt + (6 + random() * random() * 72) * MINUTE);
        if (appEnd > taskEnd - MINUTE) appEnd = taskEnd;
        const pool = random() < 0.12 ? EVERYDAY : apps;
        // Weighted to the first (the task's main application), never the same twice in a row.
        let application = pool[Math.floor(random() * random() * pool.length)]!;
        if (application === previousApp) application = pool.find((app) => app !== previousApp) ?? application;
        add({ kind: 'app', start: appAt, end: appEnd, application });
        previousApp = application;
        appAt = appEnd;
      }
      at = taskEnd;
    }
    // Idle only while the status tracks it: a long stretch, or a few short ones.
    if (!block.status?.trackIdle) continue;
    const blockMs = block.end - block.start;
    if (block.idleHour) {
      const idleMs = toSecond(Math.min(blockMs - 10 * MINUTE, (35 + random() * 35) * MINUTE));
      const start = toSecond(block.start + 5 * MINUTE + random() * (blockMs - idleMs - 10 * MINUTE));
      add({ kind: 'idle', start, end: start + idleMs });
      continue;
    }
    for (let idleAt = block.start; ; ) {
      idleAt = toSecond(idleAt + -Math.log(1 - random()) * 100 * MINUTE);
      const idleEnd = toSecond(idleAt + (1 + random() * 8) * MINUTE);
      if (idleEnd > block.end - MINUTE) break;
      add({ kind: 'idle', start: idleAt, end: idleEnd });
      idleAt = idleEnd + MINUTE;
    }
  }
  spans.sort((a, b) => a.start - b.start || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  return { schedule, outcome, arrival, spans };
}

const KIND_ORDER = { session: 0, status: 1, task: 2, app: 3, idle: 4 } as const;

/** Every schedule's day (in order of start; a day never starts before the previous one ended), its spans by start. */
export function planWorkdayList(input: Workdays): PlannedDay[] {
  const schedules = [...input.schedules]
    .filter((schedule) => schedule.end > schedule.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const days: PlannedDay[] = [];
  let notBefore = Number.NEGATIVE_INFINITY;
  for (const schedule of schedules) {
    const day = planDay(schedule, input.statuses, input.tasks, input.seed, notBefore);
    days.push(day);
    const last = day.spans.find((span) => span.kind === 'session');
    if (last) notBefore = last.end;
  }
  return days;
}

/** The spans of every schedule's day, by start. */
export function planWorkdays(input: Workdays): PlannedSpan[] {
  return planWorkdayList(input)
    .flatMap((day) => day.spans)
    .sort((a, b) => a.start - b.start || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}
