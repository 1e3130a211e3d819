import { gaussian } from '@opsdeck/agent/random';
import type { ExecutionStatus } from '@opsdeck/contract/live';
import { type ActivityFamily, errorMessageFor, errorsFor, familyOf } from '@opsdeck/rax/activity-errors';

/**
 * How a run of the demo's history ends (demo-runs.ts plans when): each step takes its expected
 * time give or take and may fail as its activity does in real life, more during an outage.
 */

export type RunStep = { activity: string; name: string; expectedSeconds: number };

/** The agent's report of a run terminated from the console (TERMINATED_MESSAGE in apps/agent/src/runner.ts). */
export const TERMINATED_MESSAGE = 'Terminated from the console';

/** The chance a step fails, by its activity's family: web pages, SAP, scans and mailboxes are fragile. */
const FRAGILITY: Record<ActivityFamily, number> = {
  web: 0.045,
  sap: 0.05,
  ocr: 0.09,
  pdf: 0.045,
  mail: 0.004,
  http: 0.006,
  excel: 0.005,
  sql: 0.004,
  delay: 0.0005,
};
/** Fetching from a mailbox fails far more than sending through Outlook. */
const ACTIVITY_FRAGILITY: Record<string, number> = { 'get-imap-mail': 0.045 };
const fragilityOf = (activity: string) => {
  const family = familyOf(activity);
  return ACTIVITY_FRAGILITY[activity] ?? (family ? FRAGILITY[family] : 0.01);
};

/** The share of runs someone terminates from the console: more when robots hang in an outage. */
const TERMINATED = 0.008;
const TERMINATED_IN_OUTAGE = 0.06;

/** An outage as it happened: from..to, the steps of these activities failed this often. */
export type Incident = { from: number; to: number; fails: Record<string, number>; message: RegExp };

/** An outage every demo company had, on a weekday its seed chooses (demo-runs.ts, incidentsOf). */
export type Outage = {
  /** How many days ago it may have started, and its local hours. */
  daysAgo: [number, number];
  hours: [number, number];
  /** How many days it lasted (1). */
  days?: number;
  fails: Record<string, number>;
  message: RegExp;
};

export const OUTAGES: Outage[] = [
  // An afternoon SAP was down: most SAP runs fail with a timed-out session. Recent, so the report's
  // first view shows it.
  {
    daysAgo: [2, 9],
    hours: [13, 17.5],
    fails: { 'sap-logon': 0.85, 'sap-call-transaction': 0.85 },
    message: /timed out/,
  },
  // The mail server went away for a morning.
  {
    daysAgo: [14, 40],
    hours: [8.5, 11],
    fails: { 'get-imap-mail': 0.9, 'send-outlook-mail': 0.6 },
    message: /timed out|not responding/,
  },
  // The carrier portal changed its pages: bookings fail on missing elements until the robot was fixed.
  {
    daysAgo: [45, 70],
    hours: [0, 24],
    days: 2,
    fails: { 'click-element': 0.45, 'type-into': 0.45 },
    message: /not found/,
  },
  // A batch of poor scans.
  { daysAgo: [20, 80], hours: [0, 24], fails: { 'ocr-document': 0.35 }, message: /Confidence/ },
  // The shared workbook left open on someone's machine all morning.
  {
    daysAgo: [10, 60],
    hours: [8, 12],
    fails: { 'read-excel-range': 0.3, 'write-excel-range': 0.3 },
    message: /locked/,
  },
];

export type Outcome = {
  ms: number;
  status: ExecutionStatus;
  errorActivity: string | null;
  errorMessage: string | null;
};

const labelOf = (step: RunStep) => step.name.trim() || step.activity;

/**
 * One run of these steps: each takes its expected time give or take, and may fail as its activity
 * does (times the day's luck, or an outage's rate). A failed step took part of its time, or the
 * time its message names ("timed out after 30 s"); a terminated run stops in the step it was in.
 */
export function runOnce(
  steps: RunStep[],
  at: number,
  luck: number,
  incidents: Incident[],
  random: () => number,
): Outcome {
  const active = incidents.filter((incident) => at >= incident.from && at < incident.to);
  const hit = (activity: string) => active.find((incident) => incident.fails[activity] !== undefined);
  const terminated = random() < (steps.some((step) => hit(step.activity)) ? TERMINATED_IN_OUTAGE : TERMINATED);
  const terminateAt = terminated ? Math.floor(random() * steps.length) : -1;
  // The robot starts up first.
  let ms = 1_500 + random() * 2_500;
  for (const [index, step] of steps.entries()) {
    const stepMs = step.expectedSeconds * 1000 * Math.exp(0.25 * gaussian(random));
    if (index === terminateAt) {
      return {
        ms: ms + stepMs * random(),
        status: 'unknown',
        errorActivity: labelOf(step),
        errorMessage: TERMINATED_MESSAGE,
      };
    }
    const incident = hit(step.activity);
    const chance = Math.max(fragilityOf(step.activity) * luck, incident?.fails[step.activity] ?? 0);
    if (random() < chance) {
      const fitting = incident ? errorsFor(step.activity).find((message) => incident.message.test(message)) : undefined;
      const message = fitting ?? errorMessageFor(step.activity, random);
      const waited = /after (\d+) s/.exec(message);
      return {
        ms: ms + (waited ? Number(waited[1]) * 1000 + random() * 2_000 : stepMs * (0.2 + 0.8 * random())),
        status: 'faulted',
        errorActivity: labelOf(step),
        errorMessage: message,
      };
    }
    ms += stepMs;
  }
  return { ms, status: 'success', errorActivity: null, errorMessage: null };
}
