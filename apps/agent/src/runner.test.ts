import { errorsFor } from '@opsdeck/rax/activity-errors';
import { readRax } from '@opsdeck/rax/read';
import { writeRax } from '@opsdeck/rax/write';
import { describe, expect, it } from 'vitest';
import { runSteps, type Sleep, TERMINATED_MESSAGE } from './runner';

/** A random source that answers the given numbers in turn (then 0.99). */
const sequence =
  (...values: number[]) =>
  () =>
    values.shift() ?? 0.99;

async function invoiceSteps() {
  const bytes = await writeRax({
    name: 'Invoice intake',
    steps: [
      { activity: 'open-browser', name: 'Open the supplier portal', expectedSeconds: 20 },
      { activity: 'read-excel-range', name: 'Read the invoice list', expectedSeconds: 45 },
      { activity: 'send-outlook-mail', name: '', expectedSeconds: 10 },
    ],
  });
  return (await readRax(bytes)).manifest.steps;
}

/** A fake clock: records each wait and returns at once. */
function fakeSleep() {
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };
  return { waits, sleep };
}

describe('runSteps', () => {
  it('walks every step of a real .rax for its expectedSeconds divided by speed', async () => {
    const steps = await invoiceSteps();
    const { waits, sleep } = fakeSleep();
    const seen: string[] = [];
    const outcome = await runSteps(steps, {
      speed: 10,
      failureRate: 0.1,
      random: sequence(0.5),
      sleep,
      onStep: (step) => seen.push(step.activity),
    });
    expect(outcome).toEqual({ statusType: 'success', errorMessage: null, errorActivity: null });
    expect(waits).toEqual([2_000, 4_500, 1_000]);
    expect(seen).toEqual(['open-browser', 'read-excel-range', 'send-outlook-mail']);
  });

  it('runs with the real timer at a high speed', async () => {
    const steps = await invoiceSteps();
    const started = Date.now();
    const outcome = await runSteps(steps, { speed: 1000, failureRate: 0, random: Math.random });
    expect(outcome.statusType).toBe('success');
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
  });

  it('fails at the step the random source picks, part-way through it, with a message fitting its activity', async () => {
    const steps = await invoiceSteps();
    const { waits, sleep } = fakeSleep();
    // fail (0.05 < 0.1), at step index 1 (0.4 × 3), after half of it, with the first Excel message
    const outcome = await runSteps(steps, { speed: 1, failureRate: 0.1, random: sequence(0.05, 0.4, 0.5, 0), sleep });
    expect(outcome).toEqual({
      statusType: 'faulted',
      errorMessage: 'The file is locked by another user',
      errorActivity: 'Read the invoice list',
    });
    expect(waits).toEqual([20_000, 22_500]);
  });

  it('names a step without a name by its activity', async () => {
    const steps = await invoiceSteps();
    const outcome = await runSteps(steps, {
      speed: 1,
      failureRate: 1,
      random: sequence(0, 0.99, 0, 0),
      sleep: fakeSleep().sleep,
    });
    expect(outcome).toMatchObject({ statusType: 'faulted', errorActivity: 'send-outlook-mail' });
    expect(errorsFor('send-outlook-mail')).toContain(outcome.errorMessage);
  });

  it('ends a terminated run at once with status unknown, naming the step it was in', async () => {
    const steps = await invoiceSteps();
    const controller = new AbortController();
    const waits: number[] = [];
    const sleep: Sleep = async (ms) => {
      waits.push(ms);
      if (waits.length === 2) controller.abort(TERMINATED_MESSAGE);
    };
    const outcome = await runSteps(steps, {
      speed: 1,
      failureRate: 0,
      random: Math.random,
      sleep,
      signal: controller.signal,
    });
    expect(outcome).toEqual({
      statusType: 'unknown',
      errorMessage: TERMINATED_MESSAGE,
      errorActivity: 'Read the invoice list',
    });
    expect(waits).toHaveLength(2);
  });
});
