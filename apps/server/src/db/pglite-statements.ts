import { type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/**
 * PGlite's statements, each parsed once per database (docs/performance.md, "PGlite's statements").
 *
 * PGlite's own `query` sends every statement as an unnamed one: parsed, described, bound and
 * executed in five calls into the database, and planned again each time. On the list pages that
 * was most of a request's time in the database (planning a list statement took 0.7–1.4 ms, running
 * it 0.2–0.4 ms). Here each text the server sends becomes a named statement the first time it
 * runs; after that one call binds, describes and executes it. PostgreSQL plans a named statement
 * for its values the first five times and then keeps a generic plan when that is as good
 * (`plan_cache_mode`), so the planning goes too; a plan is made again by PostgreSQL itself when a
 * table it reads changes (a migration, a new partition) or the role or row-level security it ran
 * under differs.
 *
 * Named statements belong to the session, not to a transaction: one parsed inside a transaction
 * that rolls back stays. At most `max` are kept (MAX_STATEMENTS); the one used longest ago is closed.
 */
const MAX_STATEMENTS = 500;

type Statement = { name: string; parameterTypes: number[] };
type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/** The PGlite internals this leans on, as its own `query` does: the check that it is open, its lock. */
type Internals = {
  /** Throws 'PGlite is closed' (a database unavailable: 503, platform/database-errors.ts). */
  _checkReady: () => Promise<void>;
  _runExclusiveTransaction: <T>(work: () => Promise<T>) => Promise<T>;
};

/** A statement that no longer matches its tables, or that the session lost: parsed again once. */
const STALE = new Set(['0A000', '26000']);

export function cacheStatements(client: PGlite, { max = MAX_STATEMENTS } = {}): PGlite {
  const statements = new Map<string, Statement>();
  let counter = 0;
  const { serialize } = protocol;

  const send = async (...messages: Uint8Array[]) =>
    (await client.execProtocol(Buffer.concat(messages), { syncToFs: false })).messages;

  async function forget(text: string) {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    await send(serialize.close({ type: 'S', name: statement.name }), serialize.sync());
  }

  async function prepare(text: string, options?: QueryOptions): Promise<Statement> {
    const known = statements.get(text);
    if (known) {
      // Most recently used last: the first entry is the one to close when the cache is full.
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    if (statements.size >= max) await forget(statements.keys().next().value as string);
    counter += 1;
    const name = `opsdeck_${counter}`;
    const messages = await send(
      serialize.parse({ name, text, types: options?.paramTypes }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    );
    const description = messages.find((message) => message instanceof protocol.messages.ParameterDescriptionMessage);
    const statement = { name, parameterTypes: description?.dataTypeIDs ?? [] };
    statements.set(text, statement);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, retried = false) {
    const statement = await prepare(text, options);
    // Each value as PGlite's own query writes it: its type's serializer, else its text.
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[index]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const messages = await send(
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      );
      return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Inside a transaction the error has aborted it: parsing again there could not help.
      if (retried || !code || !STALE.has(code) || client.isInTransaction()) throw error;
      await forget(text);
      return run<T>(text, params, options, true);
    }
  }

  /** Under the query lock (and so in the scope set before each statement: db/client.ts). */
  const locked = <T>(text: string, params: unknown[] = [], options?: QueryOptions) =>
    client.runExclusive(() => run<T>(text, params, options));

  const query: Query = async <T>(text: string, params?: unknown[], options?: QueryOptions) => {
    // A blob (COPY) takes PGlite's own path, which handles it.
    if (options?.blob) return client.query(text, params, options);
    // Outside a transaction: the transaction lock too, as PGlite's own `query` takes it.
    const internals = client as unknown as Internals;
    await internals._checkReady();
    return internals._runExclusiveTransaction(async () => {
      const results = await locked<T>(text, params, options);
      // As PGlite's own `query` after a statement outside a transaction (a no-op on a Node file system).
      await client.syncToFs();
      return results;
    });
  };

  const inTransaction = (tx: Transaction): Transaction => {
    const txQuery: Query = async (text, params, options) => {
      if (tx.closed) throw new Error('Transaction is closed');
      if (options?.blob) return tx.query(text, params, options);
      return locked(text, params, options);
    };
    return new Proxy(tx, {
      get: (target, property) => (property === 'query' ? txQuery : Reflect.get(target, property, target)),
    });
  };

  return new Proxy(client, {
    get: (target, property) => {
      if (property === 'query') return query;
      if (property === 'transaction')
        return <T>(work: (tx: Transaction) => Promise<T>) => target.transaction((tx) => work(inTransaction(tx)));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
