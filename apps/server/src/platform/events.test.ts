import { describe, expect, it, vi } from 'vitest';
import { createLocalEventBus, type DomainEvent } from './events';

const archived: DomainEvent = { resource: 'users', kind: 'archived', ids: [7], tenantId: 't-1' };

describe('the local event bus', () => {
  it('delivers each event to the subscribers of its resource, in order, until they unsubscribe', () => {
    const bus = createLocalEventBus();
    const seen: string[] = [];
    const stop = bus.subscribe((event) => void seen.push(`all:${event.resource}`));
    bus.subscribe((event) => void seen.push(`roles:${event.kind}`), { resources: ['roles'] });
    bus.publish(archived);
    bus.publish({ resource: 'roles', kind: 'updated', ids: [1], tenantId: null });
    stop();
    bus.publish(archived);
    expect(seen).toEqual(['all:users', 'all:roles', 'roles:updated']);
  });

  it('keeps delivering when a subscriber throws or rejects, and logs the fault', async () => {
    const log = { error: vi.fn() };
    const bus = createLocalEventBus(log);
    const after = vi.fn();
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe(() => Promise.reject(new Error('later')));
    bus.subscribe(after);
    bus.publish(archived);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(after).toHaveBeenCalledWith(archived);
    expect(log.error).toHaveBeenCalledTimes(2);
  });
});
