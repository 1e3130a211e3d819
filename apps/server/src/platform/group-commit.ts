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
 * batch, and only those.
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
        .then(() => write(batch.map((entry) => entry.item)))
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
