import { describe, expect, it } from 'vitest';
import { AgentQueue } from './queue';

describe('AgentQueue', () => {
  const make = () => {
    let now = 1_000;
    return { queue: new AgentQueue(() => now), tick: (ms: number) => (now += ms) };
  };

  it('queues entries at the end with increasing ids and 1-based positions, each sent as added', () => {
    const { queue } = make();
    const a = queue.enqueue(7, 'Invoice intake');
    const b = queue.enqueue(9, 'Payroll');
    expect(a.entry).toEqual({
      id: 1,
      workflowId: 7,
      name: 'Invoice intake',
      status: 'QUEUED',
      position: 1,
      executionStart: null,
    });
    expect(b.entry).toMatchObject({ id: 2, position: 2 });
    expect(b.diff).toEqual({ added: [b.entry], updated: [], removed: [] });
  });

  it('runs one at a time, in order: the first entry becomes EXECUTING with its start time', () => {
    const { queue, tick } = make();
    queue.enqueue(7, 'A');
    queue.enqueue(8, 'B');
    tick(500);
    const started = queue.startNext();
    expect(started?.entry).toMatchObject({ id: 1, status: 'EXECUTING', position: 1, executionStart: 1_500 });
    expect(started?.diff).toEqual({ added: [], updated: [started?.entry], removed: [] });
    expect(queue.startNext()).toBeNull();
    expect(queue.running()?.id).toBe(1);

    const ended = queue.remove(1);
    expect(ended?.diff).toEqual({
      added: [],
      updated: [{ id: 2, workflowId: 8, name: 'B', status: 'QUEUED', position: 1, executionStart: null }],
      removed: [1],
    });
    expect(queue.startNext()?.entry).toMatchObject({ id: 2, status: 'EXECUTING' });
  });

  it('renumbers only the entries behind one that leaves', () => {
    const { queue } = make();
    for (const id of [1, 2, 3, 4]) queue.enqueue(id, `W${id}`);
    const { diff } = queue.remove(2)!;
    expect(diff.removed).toEqual([2]);
    expect(diff.updated.map((entry) => [entry.id, entry.position])).toEqual([
      [3, 2],
      [4, 3],
    ]);
    expect(queue.list().map((entry) => entry.position)).toEqual([1, 2, 3]);
    expect(queue.remove(2)).toBeNull();
  });

  it('never reuses an entry id, and announces the whole queue as added', () => {
    const { queue } = make();
    queue.enqueue(1, 'A');
    queue.remove(1);
    expect(queue.enqueue(1, 'A').entry.id).toBe(2);
    queue.enqueue(5, 'B');
    queue.startNext();
    expect(queue.announce()).toEqual({ added: queue.list(), updated: [], removed: [] });
    expect(queue.announce().added.map((entry) => entry.status)).toEqual(['EXECUTING', 'QUEUED']);
  });

  it('renames the entries of a workflow named after they were queued, and only those', () => {
    const queue = new AgentQueue(() => 1000);
    queue.enqueue(7, 'Workflow 7');
    queue.enqueue(8, 'Payroll');
    queue.enqueue(7, 'Workflow 7');
    const diff = queue.rename(7, 'Invoice intake');
    expect(diff.updated.map((entry) => [entry.id, entry.name])).toEqual([
      [1, 'Invoice intake'],
      [3, 'Invoice intake'],
    ]);
    expect(queue.rename(7, 'Invoice intake').updated).toEqual([]);
    expect(queue.list().map((entry) => entry.name)).toEqual(['Invoice intake', 'Payroll', 'Invoice intake']);
  });

  it('hands out copies: changing one does not change the queue', () => {
    const { queue } = make();
    const { entry } = queue.enqueue(1, 'A');
    entry.position = 99;
    queue.list()[0]!.name = 'changed';
    expect(queue.find(1)).toMatchObject({ position: 1, name: 'A' });
  });
});
