/**
 * Group commit: calls made one at a time are written together. The first call is written at once;
 * the calls that arrive while a write is under way wait and go in the next one, up to `maxBatch`
 * a write, with at most `maxInFlight` writes at a time. At low load each call is its own write;
 * under load a write carries many, so a hot row (a rollup all of a company's runs add to) is
 * updated once a batch instead of once a call.
 *
 * `write` answers one result per item, in order; a write that throws fails every call of its batch.
 */
export function groupCommit<Item, Result>(
  write: (items: Item[]) => Promise<Result[]>,
  options: { maxBatch: number; maxInFlight: number },
): (item: Item) => Promise<Result> {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let inFlight = 0;

  function pump() {
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.splice(0, options.maxBatch);
      inFlight += 1;
      write(batch.map((entry) => entry.item))
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
          pump();
        });
    }
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      pump();
    });
}
