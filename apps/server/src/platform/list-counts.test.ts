import { describe, expect, it } from 'vitest';
import { createLocalEventBus, type DomainEvent, type EventBus } from './events';
import { createListCounts, ListCache } from './list-counts';
import { EVERY_TENANT, oneTenant } from './tenancy';

/** The in-process bus, with the liveness and the resync signal a Redis bus has, under the test's control. */
function controlledBus() {
  const local = createLocalEventBus();
  const resyncHandlers = new Set<() => void>();
  let live = true;
  const bus: EventBus = {
    publish: local.publish,
    subscribe: local.subscribe,
    isLive: () => live,
    onResync: (handler) => {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
    },
  };
  return {
    bus,
    setLive: (value: boolean) => {
      live = value;
    },
    resync: () => {
      for (const handler of resyncHandlers) handler();
    },
  };
}

/** A load that counts its calls and answers `value` (changed by the test, as rows would be). */
function counter(initial: number) {
  const state = { value: initial, calls: 0 };
  const load = async () => {
    state.calls += 1;
    return state.value;
  };
  return { state, load };
}

const A = oneTenant('tenant-a');
const B = oneTenant('tenant-b');
const event = (over: Partial<DomainEvent>): DomainEvent => ({
  resource: 'users',
  kind: 'created',
  ids: [1],
  tenantId: 'tenant-a',
  ...over,
});

describe('ListCache', () => {
  it('serves a count again without loading it, per scope and filter', async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['users']);
    const { state, load } = counter(7);
    expect(await counts.get(A, { search: 'an' }, load)).toBe(7);
    state.value = 8;
    expect(await counts.get(A, { search: 'an' }, load)).toBe(7);
    expect(state.calls).toBe(1);
    expect(await counts.get(A, { search: 'and' }, load)).toBe(8);
    expect(await counts.get(B, { search: 'an' }, load)).toBe(8);
    expect(state.calls).toBe(3);
  });

  it("evicts on an event of a resource it depends on, in the event's tenant and the every-tenant scope", async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['users', 'roles']);
    const { state, load } = counter(1);
    await counts.get(A, 'f', load);
    await counts.get(B, 'f', load);
    await counts.get(EVERY_TENANT, 'f', load);
    state.value = 2;

    bus.publish(event({ resource: 'companies', tenantId: 'tenant-a' }));
    expect(await counts.get(A, 'f', load)).toBe(1);

    bus.publish(event({ resource: 'roles', tenantId: 'tenant-a' }));
    expect(await counts.get(A, 'f', load)).toBe(2);
    expect(await counts.get(B, 'f', load)).toBe(1);
    expect(await counts.get(EVERY_TENANT, 'f', load)).toBe(2);
  });

  it("evicts only the every-tenant values on an event of the provider's own rows (tenant null)", async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['accounts']);
    const { state, load } = counter(1);
    await counts.get(A, 'f', load);
    await counts.get(EVERY_TENANT, 'f', load);
    state.value = 2;
    bus.publish(event({ resource: 'accounts', tenantId: null }));
    expect(await counts.get(A, 'f', load)).toBe(1);
    expect(await counts.get(EVERY_TENANT, 'f', load)).toBe(2);
  });

  it('drops everything on a resync', async () => {
    const { bus, resync } = controlledBus();
    const counts = createListCounts(bus, ['users']);
    const { state, load } = counter(1);
    await counts.get(A, 'f', load);
    await counts.get(B, 'g', load);
    state.value = 2;
    resync();
    expect(counts.size).toBe(0);
    expect(await counts.get(A, 'f', load)).toBe(2);
    expect(await counts.get(B, 'g', load)).toBe(2);
  });

  it('neither serves nor stores while the events may not reach this instance', async () => {
    const { bus, setLive } = controlledBus();
    const counts = createListCounts(bus, ['users']);
    const { state, load } = counter(1);
    await counts.get(A, 'f', load);
    setLive(false);
    state.value = 2;
    expect(await counts.get(A, 'f', load)).toBe(2);
    state.value = 3;
    expect(await counts.get(A, 'g', load)).toBe(3);
    expect(state.calls).toBe(3);
    setLive(true);
    state.value = 4;
    expect(await counts.get(A, 'g', load)).toBe(4);
  });

  it('keeps at most maxEntries values, dropping the least recently used', async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['users'], 2);
    const { state, load } = counter(1);
    await counts.get(A, 'first', load);
    await counts.get(A, 'second', load);
    await counts.get(A, 'first', load); // now the most recently used
    await counts.get(A, 'third', load);
    expect(counts.size).toBe(2);
    state.value = 2;
    expect(await counts.get(A, 'first', load)).toBe(1);
    expect(await counts.get(A, 'third', load)).toBe(1);
    expect(await counts.get(A, 'second', load)).toBe(2);
  });

  it('runs one load for concurrent misses of one key', async () => {
    const { bus } = controlledBus();
    const counts = new ListCache<number>(bus, { dependsOn: ['users'] });
    let release: (value: number) => void = () => {};
    let calls = 0;
    const load = () => {
      calls += 1;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    const answers = Promise.all(Array.from({ length: 500 }, () => counts.get(A, 'f', load)));
    release(42);
    expect(await answers).toEqual(Array.from({ length: 500 }, () => 42));
    expect(calls).toBe(1);
  });

  it('does not store, nor let later requests join, a load that an eviction overtook', async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['users']);
    const releases: ((value: number) => void)[] = [];
    const load = () => new Promise<number>((resolve) => releases.push(resolve));
    const before = counts.get(A, 'f', load);
    bus.publish(event({ tenantId: 'tenant-a' }));
    const after = counts.get(A, 'f', load);
    expect(releases).toHaveLength(2);
    releases[0]!(1);
    releases[1]!(2);
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(await counts.get(A, 'f', () => Promise.resolve(3))).toBe(2);
  });

  it('does not keep a failed load', async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['users']);
    await expect(counts.get(A, 'f', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await counts.get(A, 'f', () => Promise.resolve(5))).toBe(5);
  });

  it('stops following the events once closed', async () => {
    const { bus } = controlledBus();
    const counts = createListCounts(bus, ['users']);
    counts.close();
    const { load } = counter(1);
    await counts.get(A, 'f', load);
    bus.publish(event({}));
    expect(counts.size).toBe(1);
  });
});
