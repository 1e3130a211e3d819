import { asProvider } from './tenancy';

/**
 * Group commit: calls made one at a time are written together. A write starts in the next turn of
 * the event loop (`setImmediate`), not at once, so every call made in the current turn (all the
 * frames read from the sockets in one poll, say) shares it: PGlite answers its queries inside the
 * microtask queue, so a write started at once would always carry one call. The calls that arrive
 * while `maxInFlight` writes are under way wait and go in the next one, up to `maxBatch` a write.
 * Under load a write carries many, so a hot row (a rollup all of a company's runs add to) is
 * updated once a batch instead of once a call; at low load a call waits well under a millisecond.
 *
 * `write` answers one result per item, in order; a write that throws fails every call of its
 * batch, and only those. A batch serves every caller that joined it, whichever company each
 * serves (the agents' reports and activity), so it runs as the provider (docs/tenancy.md, "The
 * live channel"), not in the database scope of the caller whose call happened to start it.
 */
export function groupCommit<Item, Result>(
  write: (items: Item[]) => Promise<Result[]>,
  options: { maxBatch: number; maxInFlight: number },
): (item: Item) => Promise<Result> {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  function schedule() {
    if (scheduled || waiting.length === 0 || inFlight >= options.maxInFlight) return;
    scheduled = true;
    setImmediate(pump);
  }

  function pump() {
    scheduled = false;
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.splice(0, options.maxBatch);
      inFlight += 1;
      // A write that throws before its promise (a bug) fails its batch, not the pump.
      Promise.resolve()
        .then(() => asProvider(() => write(batch.map((entry) => entry.item))))
        .then(
          (results) => {
            for (const [index, entry] of batch.entries()) entry.resolve(results[index] as Result);
          },
          (error: unknown) => {
            for (const entry of batch) entry.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          schedule();
        });
    }
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      schedule();
    });
}
