import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from '../db/client';
import type { EventBus } from './events';

/**
 * One request's change as one transaction (docs/audit.md, "One transaction"). A route that changes
 * something runs its handler inside `run`: every query its services make through the unit's `db`
 * goes to that transaction, their own `db.transaction(...)` become savepoints inside it, and the
 * audit record is written in it last. The change and its record commit together or not at all.
 *
 * The services hold `unit.db`, a stand-in for the database that sends each call to the open
 * transaction of the request it runs for (found through AsyncLocalStorage), or to the database
 * outside any. A service's own `db.transaction(work)` inside a unit runs `work` in the unit's
 * transaction itself, without a savepoint (two round trips saved on every write): a failure
 * inside it fails the whole unit, which is what every service does with one anyway (it throws). Domain events published inside wait for the commit (`deferUntilCommit`): a cache
 * evicted before the commit could be filled again with what the transaction is about to replace,
 * and a change rolled back announces nothing.
 */
type Unit = {
  tx: Tx;
  /** False once the work has returned: work it left running (a mail sent later) uses the database. */
  open: boolean;
  afterCommit: (() => void)[];
};

export type UnitOfWork = {
  /** The database as the services see it: the current unit's transaction, or the database. */
  db: Db;
  /** Runs `work` in one transaction; what it defers runs after the commit. */
  run: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
  /** The open transaction of the current unit, if any. */
  current: () => Tx | undefined;
  /** Runs `effect` once the current unit commits (never, if it rolls back); at once outside any. */
  afterCommit: (effect: () => void) => void;
};

export function createUnitOfWork(db: Db): UnitOfWork {
  const storage = new AsyncLocalStorage<Unit>();
  const current = () => {
    const unit = storage.getStore();
    return unit?.open ? unit.tx : undefined;
  };

  const inUnit = (work: (tx: Tx) => Promise<unknown>) => work(current()!);
  const scoped = new Proxy(db, {
    get(target, property) {
      const tx = current();
      if (tx && property === 'transaction') return inUnit;
      const source = tx ?? target;
      const value = Reflect.get(source, property, source);
      return typeof value === 'function' ? value.bind(source) : value;
    },
  });

  async function run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const afterCommit: (() => void)[] = [];
    const result = await db.transaction(async (tx) => {
      const unit: Unit = { tx, open: true, afterCommit };
      try {
        return await storage.run(unit, () => work(tx));
      } finally {
        unit.open = false;
      }
    });
    for (const effect of afterCommit) effect();
    return result;
  }

  function afterCommit(effect: () => void) {
    const unit = storage.getStore();
    if (unit?.open) unit.afterCommit.push(effect);
    else effect();
  }

  return { db: scoped, run, current, afterCommit };
}

/** The bus as the services see it: what they publish inside a unit goes out when it commits. */
export function deferUntilCommit(events: EventBus, unit: Pick<UnitOfWork, 'afterCommit'>): EventBus {
  const publish: EventBus['publish'] = (event) => unit.afterCommit(() => events.publish(event));
  return new Proxy(events, {
    get(target, property) {
      if (property === 'publish') return publish;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
