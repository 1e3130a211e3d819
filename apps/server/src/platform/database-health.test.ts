import { describe, expect, it } from 'vitest';
import { createDatabaseHealth, HEALTH_CACHE_MS } from './database-health';

describe('createDatabaseHealth', () => {
  it('probes at most once per cache period, and shares a probe between concurrent callers', async () => {
    let pings = 0;
    let up = true;
    let clock = 0;
    const health = createDatabaseHealth(
      {
        ping: async () => {
          pings += 1;
          if (!up) throw new Error('Connection terminated unexpectedly');
        },
      },
      () => clock,
    );
    expect(await Promise.all([health.state(), health.state(), health.state()])).toEqual(['ok', 'ok', 'ok']);
    expect(pings).toBe(1);

    up = false;
    clock += HEALTH_CACHE_MS - 1;
    expect(await health.state()).toBe('ok');
    expect(pings).toBe(1);
    clock += 1;
    expect(await health.state()).toBe('unavailable');
    expect(pings).toBe(2);

    up = true;
    clock += HEALTH_CACHE_MS;
    expect(await health.state()).toBe('ok');
  });
});
