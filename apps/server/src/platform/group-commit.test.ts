import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('groupCommit', () => {
  it('writes the first call alone and the calls that waited together, each answered its own result', async () => {
    const batches: number[][] = [];
    const write = groupCommit(
      async (items: number[]) => {
        batches.push(items);
        await tick();
        return items.map((item) => item * 10);
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((item) => write(item)));
    expect(results).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('fails every call of a batch whose write throws, and goes on with the next', async () => {
    let calls = 0;
    const write = groupCommit(
      async (items: string[]) => {
        calls += 1;
        await tick();
        if (calls === 2) throw new Error('database away');
        return items;
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((item) => write(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(await write('d')).toBe('d');
  });

  it('keeps at most maxInFlight writes at a time', async () => {
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
