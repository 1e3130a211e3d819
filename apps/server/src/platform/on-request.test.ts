import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerOnRequest } from './on-request';

describe('the one onRequest hook', () => {
  it('runs its steps in order, waits for those that return a promise, and stops at a refusal', async () => {
    const app = Fastify();
    const ran: string[] = [];
    registerOnRequest(app, [
      (_request, reply) => {
        ran.push('headers');
        reply.header('x-step', 'headers');
      },
      async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        ran.push('access');
        if (request.url === '/refused') throw Object.assign(new Error('no'), { statusCode: 403 });
      },
      () => {
        ran.push('last');
      },
    ]);
    app.get('/open', async () => 'ok');
    app.get('/refused', async () => 'never');

    const open = await app.inject('/open');
    expect(open.statusCode).toBe(200);
    expect(ran).toEqual(['headers', 'access', 'last']);

    ran.length = 0;
    const refused = await app.inject('/refused');
    expect(refused.statusCode).toBe(403);
    // A refusal still carries what the earlier steps set (the security headers).
    expect(refused.headers['x-step']).toBe('headers');
    expect(ran).toEqual(['headers', 'access']);
  });

  it('answers a step that throws at once without running the rest', async () => {
    const app = Fastify();
    registerOnRequest(app, [
      () => {
        throw Object.assign(new Error('no key'), { statusCode: 401 });
      },
      () => {
        throw new Error('not reached');
      },
    ]);
    app.get('/x', async () => 'ok');
    expect((await app.inject('/x')).statusCode).toBe(401);
  });
});
