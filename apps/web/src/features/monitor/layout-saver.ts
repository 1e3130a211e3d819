import type { Layout } from './layout';

/** Spec section 9: the layout is saved 500 ms after the last change. */
export const SAVE_DELAY_MS = 500;

export interface LayoutSaverOptions<Answer> {
  delayMs?: number;
  save: (layout: Layout) => Promise<Answer>;
  onSaved: (answer: Answer, layout: Layout) => void;
  /** The save failed: `restore` is the last layout the server has (the one before these changes). */
  onFailed: (error: unknown, restore: Layout) => void;
}

/**
 * One debounced save of a layout: each change waits `delayMs` for the next, so a burst of drags
 * and toggles is one call. It knows the last layout the server confirmed, which a failed save
 * restores. No React in here, so its timing is tested with fake timers.
 */
export function createLayoutSaver<Answer>(options: LayoutSaverOptions<Answer>) {
  const delayMs = options.delayMs ?? SAVE_DELAY_MS;
  let confirmed: Layout | null = null;
  let pending: Layout | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;

  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  async function flush(): Promise<void> {
    clear();
    const layout = pending;
    if (layout === null) return;
    pending = null;
    inFlight += 1;
    try {
      const answer = await options.save(layout);
      confirmed = layout;
      options.onSaved(answer, layout);
    } catch (error) {
      // Changes made while this one was on its way are dropped too: they built on it.
      pending = null;
      clear();
      if (confirmed) options.onFailed(error, confirmed);
    } finally {
      inFlight -= 1;
    }
  }

  return {
    /** The layout the server has (read, or saved). */
    confirm(layout: Layout) {
      confirmed = layout;
    },
    /** A change: saved once no other follows for `delayMs`. */
    change(layout: Layout) {
      pending = layout;
      clear();
      timer = setTimeout(() => void flush(), delayMs);
    },
    /** Saves a waiting change now (leaving the page). */
    flush,
    /** Whether a change waits or is on its way: the server's copy must not overwrite the screen then. */
    busy: () => pending !== null || inFlight > 0,
    /** Drops a waiting change and its timer. */
    dispose: clear,
  };
}
