import { ACTIVITY_MAX_SPAN_MS, Activity } from '@opsdeck/contract/activity';
import { describe, expect, it } from 'vitest';
import {
  applicationsFor,
  departmentChain,
  EDGE_MINUTES,
  type PlannedSpan,
  planDay,
  planWorkdayList,
  planWorkdays,
  statusesFor,
  type WorkdayStatus,
  type Workdays,
} from './workday';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Monday 2 March 2026, 00:00 UTC. */
const BASE = Date.UTC(2026, 2, 2);

/** The demo's statuses of one top department (demo-statuses.ts). */
const STATUSES: WorkdayStatus[] = [
  { id: 1, name: 'Available', threshold: 0, trackIdle: true },
  { id: 2, name: 'Offline', threshold: 0, trackIdle: false },
  { id: 3, name: 'On Break', threshold: 15, trackIdle: false },
  { id: 4, name: 'In Meeting', threshold: 60, trackIdle: false },
  { id: 5, name: 'Training', threshold: 45, trackIdle: true },
  { id: 6, name: 'Operations Focus Work', threshold: 30, trackIdle: true },
];
const TASKS = [
  { id: 11, name: 'Queue processing', statusId: 1 },
  { id: 12, name: 'Case follow-up', statusId: 1 },
  { id: 13, name: 'Team stand-up', statusId: 4 },
  { id: 14, name: 'Compliance course', statusId: 5 },
  { id: 15, name: 'Operations backlog', statusId: 6 },
  { id: 16, name: 'Operations reviews', statusId: 6 },
];

/** `days` weekdays of 08:00 to 17:00 UTC from BASE. */
function schedules(days: number, first = BASE) {
  return Array.from({ length: days }, (_, i) => ({
    start: first + i * DAY + 8 * HOUR,
    end: first + i * DAY + 17 * HOUR,
  }));
}

const input = (seed: string, days = 20): Workdays => ({
  seed,
  schedules: schedules(days),
  statuses: STATUSES,
  tasks: TASKS,
});

const overlaps = (spans: PlannedSpan[]) => {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  return sorted.some((span, i) => i > 0 && span.start < sorted[i - 1]!.end);
};

describe('the workday planner', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(planWorkdays(input('ana@example.test'))).toEqual(planWorkdays(input('ana@example.test')));
    expect(planWorkdays(input('ana@example.test'))).not.toEqual(planWorkdays(input('ben@example.test')));
    // A day depends on its schedule, not on which other days are planned with it.
    const week = planWorkdayList(input('ana@example.test', 5));
    const alone = planDay(schedules(5)[3]!, STATUSES, TASKS, 'ana@example.test');
    expect(week[3]).toEqual(alone);
    // Nor on the order the statuses and tasks come in.
    expect(planDay(schedules(1)[0]!, [...STATUSES].reverse(), [...TASKS].reverse(), 'x')).toEqual(
      planDay(schedules(1)[0]!, STATUSES, TASKS, 'x'),
    );
  });

  it('gives well-formed contract spans with unique ids, within the schedule, none over 24 hours', () => {
    const days = planWorkdayList(input('carla@example.test', 60));
    const ids = new Set<string>();
    for (const day of days) {
      const { start, end } = day.schedule;
      for (const span of day.spans) {
        expect(Activity.safeParse(span).success, JSON.stringify(span)).toBe(true);
        expect(ids.has(span.id)).toBe(false);
        ids.add(span.id);
        expect(span.end).toBeGreaterThan(span.start);
        expect(span.end - span.start).toBeLessThanOrEqual(ACTIVITY_MAX_SPAN_MS);
        expect(span.start).toBeGreaterThanOrEqual(start - EDGE_MINUTES.early * MINUTE);
        expect(span.end).toBeLessThanOrEqual(end + EDGE_MINUTES.leaveLate * MINUTE);
      }
      if (day.outcome === 'absent') {
        expect(day.spans).toEqual([]);
        continue;
      }
      const sessions = day.spans.filter((span) => span.kind === 'session');
      expect(sessions).toHaveLength(1);
      const session = sessions[0]!;
      expect(session.start).toBe(day.arrival);
      // Every other span inside the session; no two of one kind at once.
      for (const span of day.spans) {
        expect(span.start).toBeGreaterThanOrEqual(session.start);
        expect(span.end).toBeLessThanOrEqual(session.end);
      }
      for (const kind of ['status', 'task', 'app', 'idle'] as const) {
        expect(overlaps(day.spans.filter((span) => span.kind === kind)), kind).toBe(false);
      }
      // The statuses cover the whole session, one after the other.
      const statuses = day.spans.filter((span) => span.kind === 'status');
      expect(statuses[0]!.start).toBe(session.start);
      expect(statuses.at(-1)!.end).toBe(session.end);
      for (let i = 1; i < statuses.length; i += 1) expect(statuses[i]!.start).toBe(statuses[i - 1]!.end);
      // A light seed: tens of spans a day, not hundreds.
      expect(day.spans.length).toBeGreaterThanOrEqual(20);
      expect(day.spans.length).toBeLessThanOrEqual(110);
    }
    const present = days.filter((day) => day.outcome !== 'absent');
    const mean = present.reduce((sum, day) => sum + day.spans.length, 0) / present.length;
    expect(mean).toBeGreaterThanOrEqual(40);
    expect(mean).toBeLessThanOrEqual(80);
  });

  it('signs in on time mostly, late about 8% and absent about 5% of days', () => {
    const days = Array.from({ length: 100 }, (_, i) => planWorkdayList(input(`person${i}@example.test`, 20))).flat();
    const share = (outcome: string) => days.filter((day) => day.outcome === outcome).length / days.length;
    expect(share('absent')).toBeGreaterThan(0.035);
    expect(share('absent')).toBeLessThan(0.065);
    expect(share('late')).toBeGreaterThan(0.06);
    expect(share('late')).toBeLessThan(0.1);
    for (const day of days) {
      if (day.arrival === null) continue;
      const minutes = (day.arrival - day.schedule.start) / MINUTE;
      if (day.outcome === 'late') {
        expect(minutes).toBeGreaterThanOrEqual(EDGE_MINUTES.lateMin - 0.01);
        expect(minutes).toBeLessThanOrEqual(EDGE_MINUTES.lateMax + 0.01);
      } else {
        // On time: never late by the monitor's 5 minutes.
        expect(minutes).toBeGreaterThanOrEqual(-EDGE_MINUTES.early - 0.01);
        expect(minutes).toBeLessThanOrEqual(5);
      }
    }
  });

  it('takes one or two breaks a day in a status with a threshold, now and then over it', () => {
    const days = Array.from({ length: 40 }, (_, i) => planWorkdayList(input(`b${i}@example.test`, 20)))
      .flat()
      .filter((day) => day.outcome !== 'absent');
    let breaks = 0;
    let over = 0;
    for (const day of days) {
      const own = day.spans.filter((span) => span.kind === 'status' && span.statusId === 3);
      expect(own.length).toBeGreaterThanOrEqual(1);
      expect(own.length).toBeLessThanOrEqual(2);
      breaks += own.length;
      over += own.filter((span) => span.end - span.start > 15 * MINUTE).length;
      // No task, application or idle time during a break.
      for (const pause of own) {
        const inside = day.spans.filter(
          (span) =>
            span.kind !== 'session' && span.kind !== 'status' && span.start < pause.end && span.end > pause.start,
        );
        expect(inside).toEqual([]);
      }
    }
    expect(over / breaks).toBeGreaterThan(0.06);
    expect(over / breaks).toBeLessThan(0.15);
  });

  it('idles only while the status tracks idle, at least a minute, with an idle hour now and then', () => {
    const people = Array.from({ length: 40 }, (_, i) => planWorkdays(input(`i${i}@example.test`, 20)));
    const idle = people.flatMap((spans) => spans.filter((span) => span.kind === 'idle'));
    expect(idle.length).toBeGreaterThan(100);
    for (const spans of people) {
      const statuses = spans.filter((span) => span.kind === 'status');
      for (const span of spans.filter((item) => item.kind === 'idle')) {
        expect(span.end - span.start).toBeGreaterThanOrEqual(MINUTE);
        const during = statuses.find((status) => status.start <= span.start && span.end <= status.end);
        expect(during, 'an idle span inside one status span').toBeDefined();
        const status = STATUSES.find((item) => item.id === (during as { statusId: number }).statusId)!;
        expect(status.trackIdle).toBe(true);
      }
    }
    expect(idle.filter((span) => span.end - span.start >= 30 * MINUTE).length).toBeGreaterThan(10);
  });

  it('works on the tasks of its status, in applications that fit them', () => {
    const day = planWorkdayList(input('dana@example.test', 10)).find((item) => item.outcome === 'present')!;
    const statusAt = (at: number) =>
      day.spans.find((span) => span.kind === 'status' && span.start <= at && at < span.end) as { statusId: number };
    for (const task of day.spans.filter((span) => span.kind === 'task')) {
      const own = TASKS.find((item) => item.id === (task as { taskId: number }).taskId)!;
      expect(own.statusId).toBe(statusAt(task.start).statusId);
    }
    expect(applicationsFor('Queue processing')).toContain('SAP GUI');
    expect(applicationsFor('Patient Accounts reviews')).toContain('Epic');
    expect(applicationsFor('Team stand-up')[0]).toBe('Teams');
    expect(applicationsFor('Something else')).toEqual(['Outlook', 'Excel', 'Chrome', 'Teams']);
  });

  it('keeps days apart, and plans nothing for a person without statuses but the session and applications', () => {
    // A night shift followed by an early one that overlaps it: the second waits for the first.
    const days = planWorkdayList({
      seed: 'eve@example.test',
      schedules: [
        { start: BASE + 22 * HOUR, end: BASE + 30 * HOUR },
        { start: BASE + 29 * HOUR, end: BASE + 38 * HOUR },
      ],
      statuses: [],
      tasks: [],
    });
    const sessions = days.flatMap((day) => day.spans.filter((span) => span.kind === 'session'));
    expect(overlaps(sessions)).toBe(false);
    const kinds = new Set(days.flatMap((day) => day.spans.map((span) => span.kind)));
    expect([...kinds].every((kind) => kind === 'session' || kind === 'app')).toBe(true);
  });

  it("chooses a person's statuses by department, and walks the departments up", () => {
    const departments = [
      { id: 1, parentId: null },
      { id: 2, parentId: 1 },
      { id: 3, parentId: null },
    ];
    expect(departmentChain(departments, 2)).toEqual([2, 1]);
    expect(departmentChain(departments, null)).toEqual([]);
    const statuses = [
      { ...STATUSES[0]!, departmentId: 1, builtIn: true },
      { ...STATUSES[2]!, departmentId: 1 },
      { ...STATUSES[3]!, departmentId: 3 },
    ];
    expect(statusesFor(statuses, [3]).map((status) => status.id)).toEqual([1, 4]);
    expect(statusesFor(statuses, [2, 1]).map((status) => status.id)).toEqual([1, 3]);
  });
});
