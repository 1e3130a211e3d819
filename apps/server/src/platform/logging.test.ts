import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLog, requestLogger } from './logging';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      );
      done();
    },
  });
  const app = Fastify({
    logger: { level: 'info', stream },
    logController: new RequestLog(),
    childLoggerFactory: requestLogger,
  });
  app.get('/quiet', async () => 'ok');
  app.get('/talks', async (request) => {
    request.log.warn({ step: 1 }, 'something to say');
    return 'ok';
  });
  return { app, lines };
}

describe('the request log', () => {
  it('writes one line a request, with its id as a field', async () => {
    const { app, lines } = appWithLog();
    await app.inject('/quiet?password=hunter2');
    await app.close();
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ reqId: expect.any(String), method: 'GET', status: 200 });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });

  it("binds the request id to what a handler logs, as Fastify's child logger did", async () => {
    const { app, lines } = appWithLog();
    await app.inject('/talks');
    await app.close();
    const said = lines.find((line) => line.msg === 'something to say');
    const request = lines.find((line) => line.msg === 'request');
    expect(said).toMatchObject({ step: 1, level: 40, reqId: request?.reqId });
  });
});
