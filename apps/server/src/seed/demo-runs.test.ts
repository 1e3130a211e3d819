import { errorsFor, familyOf } from '@opsdeck/rax/activity-errors';
import { describe, expect, it } from 'vitest';
import { TERMINATED_MESSAGE } from './demo-run-outcomes';
import { type HistoryInput, type HistoryWorkflow, type PlannedRun, planDemoRuns } from './demo-runs';
import { demoWorkflowSteps } from './demo-workflows';

const DAY = 86_400_000;
// A fixed moment (a Wednesday, 15:20 UTC), so that a failure here replays.
const NOW = Date.UTC(2026, 10, 25, 15, 20);

/** The demo's workflows, made 119 to 107 days ago and revised every 35 days, as the seed dates them. */
function demoWorkflows(now: number): HistoryWorkflow[] {
  return [...demoWorkflowSteps()].map(([name, versions], index) => ({
    name,
    versions: versions.map((steps, v) => ({
      number: v + 1,
      createdAt: now - (119 - index) * DAY + v * 35 * DAY,
      steps: steps.map(([activity, stepName, expectedSeconds]) => ({ activity, name: stepName, expectedSeconds })),
    })),
  }));
}

const input = (overrides: Partial<HistoryInput> = {}): HistoryInput => ({
  now: NOW,
  days: 90,
  timeZone: 'America/Chicago',
  seed: 1,
  workflows: demoWorkflows(overrides.now ?? NOW),
  robots: 4,
  ...overrides,
});

/** The activity of the step a run stopped at (step names are unique within a workflow). */
function failedActivity(workflows: HistoryWorkflow[], run: PlannedRun) {
  const version = workflows[run.workflow]!.versions.find((item) => item.number === run.version)!;
  return version.steps.find((step) => step.name === run.errorActivity)?.activity;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local date, hour and weekday of a time in a zone. */
function local(at: number, timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    const options = { timeZone, hourCycle: 'h23', month: 'numeric', day: 'numeric', hour: 'numeric', weekday: 'short' };
    format = new Intl.DateTimeFormat('en-US', options as Intl.DateTimeFormatOptions);
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return {
    date: `${parts.month}/${parts.day}`,
    hour: Number(parts.hour),
    weekend: parts.weekday === 'Sat' || parts.weekday === 'Sun',
  };
}

const FRAGILE = new Set(['web', 'sap', 'ocr', 'pdf']);

describe('the demo history plan', () => {
  const companies = [
    input(),
    input({ seed: 2, timeZone: 'Europe/London', robots: 3, volume: 0.9 }),
    input({ seed: 3, timeZone: 'America/New_York', robots: 3 }),
  ];
  const plans = companies.map((company) => planDemoRuns(company));

  it('is the same for the same seed, and another for another', () => {
    expect(planDemoRuns(input())).toEqual(plans[0]);
    expect(planDemoRuns(input({ seed: 7 }))[0]!.id).not.toBe(plans[0]![0]!.id);
  });

  it('gives a few thousand runs over 90 days, every day, none in the future', () => {
    for (const runs of plans) {
      expect(runs.length).toBeGreaterThan(2_000);
      expect(runs.length).toBeLessThan(4_500);
      const days = new Set(runs.map((run) => Math.floor((NOW - run.start) / DAY)));
      expect(days.size).toBeGreaterThanOrEqual(89);
      const wrong = runs.filter(
        (run) =>
          run.start < NOW - 90 * DAY ||
          run.queuedAt > run.start ||
          run.end <= run.start ||
          run.end >= NOW ||
          ![run.queuedAt, run.start, run.end].every(Number.isInteger),
      );
      expect(wrong).toEqual([]);
    }
  });

  it('runs one workflow at a time on each robot, its queue entries numbered in order', () => {
    for (const runs of plans) {
      const last = new Map<number, PlannedRun>();
      const wrong: PlannedRun[] = [];
      for (const run of [...runs].sort((a, b) => a.start - b.start)) {
        const before = last.get(run.robot);
        if (before && (run.start < before.end || run.entryId !== before.entryId + 1)) wrong.push(run);
        last.set(run.robot, run);
      }
      expect(wrong).toEqual([]);
    }
  });

  it("is busier on weekdays and in the company's working hours", () => {
    for (const [index, runs] of plans.entries()) {
      const { timeZone } = companies[index]!;
      const times = runs.map((run) => local(run.start, timeZone));
      const weekend = times.filter((time) => time.weekend).length;
      // 26 weekend days and 64 weekdays: a weekday has several times a weekend day's runs.
      expect((runs.length - weekend) / 64).toBeGreaterThan((3 * weekend) / 26);
      const working = times.filter((time) => !time.weekend && time.hour >= 7 && time.hour < 19).length;
      expect(working / (runs.length - weekend)).toBeGreaterThan(0.85);
    }
  });

  it('has about 88–94% successes, 5–10% faults and about 1% terminated', () => {
    for (const runs of plans) {
      const share = (status: string) => runs.filter((run) => run.status === status).length / runs.length;
      expect(share('success')).toBeGreaterThanOrEqual(0.88);
      expect(share('success')).toBeLessThanOrEqual(0.94);
      expect(share('faulted')).toBeGreaterThanOrEqual(0.05);
      expect(share('faulted')).toBeLessThanOrEqual(0.1);
      expect(share('unknown')).toBeGreaterThan(0.002);
      expect(share('unknown')).toBeLessThan(0.02);
    }
  });

  it('fails at the fragile steps, with a message that fits the activity', () => {
    for (const [index, runs] of plans.entries()) {
      const workflows = companies[index]!.workflows;
      const faulted = runs.filter((run) => run.status === 'faulted');
      const activities = faulted.map((run) => failedActivity(workflows, run)!);
      const unfit = faulted.filter((run, i) => !errorsFor(activities[i] ?? '').includes(run.errorMessage ?? ''));
      expect(unfit).toEqual([]);
      const fragile = activities.filter(
        (activity) => FRAGILE.has(familyOf(activity) ?? '') || activity === 'get-imap-mail',
      ).length;
      expect(fragile / faulted.length).toBeGreaterThan(0.75);
      const terminated = runs.filter((item) => item.status === 'unknown');
      expect(terminated.length).toBeGreaterThan(0);
      expect(
        terminated.filter((run) => run.errorMessage !== TERMINATED_MESSAGE || !failedActivity(workflows, run)),
      ).toEqual([]);
    }
  });

  it('has an afternoon in the last days when SAP was down and most SAP runs failed', () => {
    for (const [index, runs] of plans.entries()) {
      const workflows = companies[index]!.workflows;
      const usesSap = (run: PlannedRun) =>
        workflows[run.workflow]!.versions.some((version) =>
          version.steps.some((step) => familyOf(step.activity) === 'sap'),
        );
      const afternoons = new Map<string, PlannedRun[]>();
      for (const run of runs.filter((item) => usesSap(item) && item.start > NOW - 10 * DAY)) {
        const time = local(run.start, companies[index]!.timeZone);
        if (time.hour < 13 || time.hour >= 18) continue;
        afternoons.set(time.date, [...(afternoons.get(time.date) ?? []), run]);
      }
      const faulted = [...afternoons.values()].map((group) => ({
        count: group.filter((run) => run.status === 'faulted').length,
        share: group.filter((run) => run.status === 'faulted').length / group.length,
      }));
      // One afternoon most of them failed (and were run again); on the others one or two did at most.
      const outages = faulted.filter((afternoon) => afternoon.count >= 3);
      expect(outages).toHaveLength(1);
      expect(outages[0]!.share).toBeGreaterThan(0.6);
    }
  });

  it('runs the version current at the start', () => {
    const workflows = companies[0]!.workflows;
    const intake = workflows.findIndex((workflow) => workflow.name === 'Invoice intake');
    const revised = workflows[intake]!.versions[1]!.createdAt;
    const runs = plans[0]!.filter((run) => run.workflow === intake);
    expect(runs.filter((run) => run.start < revised).every((run) => run.version === 1)).toBe(true);
    expect(runs.filter((run) => run.start >= revised).every((run) => run.version === 2)).toBe(true);
    expect(new Set(runs.map((run) => run.version))).toEqual(new Set([1, 2]));
  });
});
