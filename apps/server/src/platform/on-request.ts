import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** One step of every request: settles at once (undefined) or by a promise; throws to refuse. */
export type RequestStep = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined | void;

/**
 * The one onRequest hook: every hook is a step of Fastify's hook runner and an async one a
 * promise per request (docs/performance.md), so the steps every request needs (security
 * headers, app key and access check) run in one callback hook, in order, waiting only for a step
 * that returns a promise. Add a step here rather than another onRequest hook.
 */
export function registerOnRequest(app: FastifyInstance, steps: readonly RequestStep[]) {
  app.addHook('onRequest', (request, reply, done) => runSteps(steps, 0, request, reply, done));
}

/** Runs the steps from `index` on; no closure is made unless a step returns a promise. */
function runSteps(
  steps: readonly RequestStep[],
  index: number,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  for (let step = index; step < steps.length; step++) {
    let pending: ReturnType<RequestStep>;
    try {
      pending = steps[step]!(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending) {
      pending.then(() => runSteps(steps, step + 1, request, reply, done), done);
      return;
    }
  }
  done();
}
