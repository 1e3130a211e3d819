import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Layout } from './layout';
import { createLayoutSaver, SAVE_DELAY_MS } from './layout-saver';

const first: Layout = { 1: ['alerts'], 2: [] };
const second: Layout = { 1: [], 2: ['alerts'] };
const third: Layout = { 1: ['alerts', 'top_tasks'], 2: [] };

function saverWith(save: (layout: Layout) => Promise<string>) {
  const onSaved = vi.fn();
  const onFailed = vi.fn();
  const saveMock = vi.fn(save);
  const saver = createLayoutSaver({ save: saveMock, onSaved, onFailed });
  saver.confirm(first);
  return { saver, save: saveMock, onSaved, onFailed };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createLayoutSaver', () => {
  it('saves once, 500 ms after the last of a burst of changes', async () => {
    const { saver, save, onSaved } = saverWith(async () => 'answer');
    saver.change(second);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 100);
    saver.change(third);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(save).not.toHaveBeenCalled();
    expect(saver.busy()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith(third);
    expect(onSaved).toHaveBeenCalledWith('answer', third);
    expect(saver.busy()).toBe(false);
  });

  it('puts back the layout before the changes when the save fails', async () => {
    const { saver, onFailed, onSaved } = saverWith(async () => {
      throw new Error('refused');
    });
    saver.change(second);
    saver.change(third);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(onSaved).not.toHaveBeenCalled();
    expect(onFailed).toHaveBeenCalledWith(expect.any(Error), first);
  });

  it('restores the last saved layout, not the first one read', async () => {
    let fail = false;
    const { saver, onFailed } = saverWith(async () => {
      if (fail) throw new Error('refused');
      return 'ok';
    });
    saver.change(second);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    fail = true;
    saver.change(third);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(onFailed).toHaveBeenCalledWith(expect.any(Error), second);
  });

  it('saves a waiting change at once on flush (leaving the page), and nothing twice', async () => {
    const { saver, save } = saverWith(async () => 'ok');
    saver.change(second);
    await saver.flush();
    expect(save).toHaveBeenCalledWith(second);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(save).toHaveBeenCalledTimes(1);
    await saver.flush();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('is busy while a save is on its way', async () => {
    let finish: (value: string) => void = () => {};
    const { saver } = saverWith(() => new Promise<string>((resolve) => (finish = resolve)));
    saver.change(second);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(saver.busy()).toBe(true);
    finish('ok');
    await vi.advanceTimersByTimeAsync(0);
    expect(saver.busy()).toBe(false);
  });
});
