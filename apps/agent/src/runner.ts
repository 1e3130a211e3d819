import type { ExecutionStatus } from '@opsdeck/contract/live';
import { errorMessageFor } from '@opsdeck/rax/activity-errors';
import type { RaxStep } from '@opsdeck/rax/format';

/** Waits `ms`, or less when `signal` aborts first; never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** What a run ended with: the fields of the `/agent/execution` report that are not times or ids. */
export interface RunOutcome {
  statusType: ExecutionStatus;
  errorMessage: string | null;
  /** The step the run stopped at (its name, or its activity key when it has none). */
  errorActivity: string | null;
}

export interface RunStepsOptions {
  /** Each step takes expectedSeconds / speed. */
  speed: number;
  /** The chance, per run, that it fails at one of its steps (0 to 1). */
  failureRate: number;
  /** Numbers in [0, 1): whether the run fails, at which step, after how much of it, with which message. */
  random: () => number;
  sleep?: Sleep;
  /** Aborted to terminate the run; a string reason becomes the error message. */
  signal?: AbortSignal;
  /** Told as each step starts. */
  onStep?: (step: RaxStep, index: number) => void;
}

export const TERMINATED_MESSAGE = 'Terminated from the console';

export const stepLabel = (step: RaxStep) => step.name.trim() || step.activity;

/**
 * Walks a workflow's steps, each for its expectedSeconds scaled by `speed`. One run in
 * `failureRate` fails: at a step chosen at random, part-way through it, with an error message
 * that fits the step's activity. A terminated run ends at once with status 'unknown' (the robot
 * was stopped, it neither succeeded nor failed) naming the step it was in.
 */
export async function runSteps(steps: readonly RaxStep[], options: RunStepsOptions): Promise<RunOutcome> {
  const { speed, random, onStep } = options;
  const sleep = options.sleep ?? realSleep;
  const signal = options.signal ?? new AbortController().signal;
  const failAt = random() < options.failureRate ? Math.min(steps.length - 1, Math.floor(random() * steps.length)) : -1;

  const terminated = (step: RaxStep): RunOutcome => ({
    statusType: 'unknown',
    errorMessage: typeof signal.reason === 'string' ? signal.reason : TERMINATED_MESSAGE,
    errorActivity: stepLabel(step),
  });

  for (const [index, step] of steps.entries()) {
    if (signal.aborted) return terminated(step);
    onStep?.(step, index);
    const ms = (step.expectedSeconds * 1000) / speed;
    if (index === failAt) {
      await sleep(ms * random(), signal);
      if (signal.aborted) return terminated(step);
      return {
        statusType: 'faulted',
        errorMessage: errorMessageFor(step.activity, random),
        errorActivity: stepLabel(step),
      };
    }
    await sleep(ms, signal);
    if (signal.aborted) return terminated(step);
  }
  return { statusType: 'success', errorMessage: null, errorActivity: null };
}
