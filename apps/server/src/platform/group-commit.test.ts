import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('groupCommit', () => {
  it('writes every call made in one turn of the event loop together', async () => {
    const writes: number[][] = [];
    const commit = groupCommit(
      async (items: number[]) => {
        writes.push(items);
        return items.map((item) => item * 2);
      },
      { maxBatch: 500, maxInFlight: 2 },
    );
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => commit(i)));
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(writes).toEqual([Array.from({ length: 50 }, (_, i) => i)]);
  });

  it('shares a write even when the write answers within the microtask queue (as PGlite does)', async () => {
    const writes: number[][] = [];
    // Resolved at once: a caller awaiting its result sees it before the loop turns.
    const commit = groupCommit(
      (items: number[]) => {
        writes.push(items);
        return Promise.resolve(items);
      },
      { maxBatch: 500, maxInFlight: 1 },
    );
    const first = Promise.all([commit(1), commit(2), commit(3)]);
    await first;
    await Promise.all([commit(4), commit(5)]);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('splits at maxBatch', async () => {
    const writes: number[] = [];
    const commit = groupCommit(
      async (items: number[]) => {
        writes.push(items.length);
        return items;
      },
      { maxBatch: 10, maxInFlight: 4 },
    );
    await Promise.all(Array.from({ length: 25 }, (_, i) => commit(i)));
    expect(writes).toEqual([10, 10, 5]);
  });

  it('fails only the calls of the write that threw', async () => {
    const commit = groupCommit(
      async (items: string[]) => {
        if (items.includes('bad')) throw new Error('write failed');
        return items.map((item) => item.toUpperCase());
      },
      { maxBatch: 500, maxInFlight: 2 },
    );
    const failed = Promise.allSettled([commit('a'), commit('bad')]);
    await nextTurn();
    const later = Promise.allSettled([commit('c'), commit('d')]);
    expect((await failed).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await later).toEqual([
      { status: 'fulfilled', value: 'C' },
      { status: 'fulfilled', value: 'D' },
    ]);
    // A write that throws synchronously fails its batch the same way, and the next calls still write.
    const sync = groupCommit(
      (items: string[]) => {
        if (items.includes('bad')) throw new Error('thrown');
        return Promise.resolve(items);
      },
      { maxBatch: 500, maxInFlight: 1 },
    );
    await expect(sync('bad')).rejects.toThrow('thrown');
    expect(await sync('ok')).toBe('ok');
  });

  it('keeps at most maxInFlight writes under way; the calls meanwhile wait and go together', async () => {
    let inFlight = 0;
    let most = 0;
    const writes: number[][] = [];
    const release: (() => void)[] = [];
    const commit = groupCommit(
      async (items: number[]) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        writes.push(items);
        await new Promise<void>((resolve) => release.push(resolve));
        inFlight -= 1;
        return items;
      },
      { maxBatch: 3, maxInFlight: 2 },
    );
    const calls = Array.from({ length: 7 }, (_, i) => commit(i));
    await nextTurn();
    // Two writes of three under way; the seventh waits.
    expect(writes).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    calls.push(commit(7), commit(8));
    await nextTurn();
    expect(writes.length).toBe(2);
    release.shift()!();
    await nextTurn();
    await nextTurn();
    expect(writes[2]).toEqual([6, 7, 8]);
    while (release.length > 0) {
      release.shift()!();
      await nextTurn();
    }
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(most).toBe(2);
  });

  it('sends the calls that arrive during a write in the next one, each answered its own result', async () => {
    const batches: number[][] = [];
    const write = groupCommit(
      async (items: number[]) => {
        batches.push(items);
        await tick();
        return items.map((item) => item * 10);
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = Promise.all([1, 2].map((item) => write(item)));
    await nextTurn();
    const later = Promise.all([3, 4, 5, 6].map((item) => write(item)));
    expect(await first).toEqual([10, 20]);
    expect(await later).toEqual([30, 40, 50, 60]);
    expect(batches).toEqual([[1, 2], [3, 4, 5], [6]]);
  });

  it('keeps at most maxInFlight writes at a time, one call a write', async () => {
    let running = 0;
    let most = 0;
    const write = groupCommit(
      async (items: number[]) => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        return items;
      },
      { maxBatch: 1, maxInFlight: 2 },
    );
    await Promise.all(Array.from({ length: 8 }, (_, index) => write(index)));
    expect(most).toBe(2);
  });
});
