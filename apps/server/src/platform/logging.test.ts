import { openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { until } from '../../test/redis';
import { createLogDestination, RequestLog, requestLogger } from './logging';

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

describe('the log destination', () => {
  it('hands on every line whole and in order, those of one turn together', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-log-'));
    const file = path.join(dir, 'log');
    const destination = createLogDestination(openSync(file, 'w'));
    try {
      // More than the 4 KiB batch in one turn: written without waiting for the one-second flush.
      const lines = Array.from({ length: 200 }, (_, i) => `${JSON.stringify({ n: i, pad: 'x'.repeat(40) })}\n`);
      for (const line of lines) destination.write(line);
      await until(() => readFileSync(file, 'utf8').length >= 4096, 5_000, 'the batch written');
      const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(written.length).toBeGreaterThan(0);
      expect(written).toEqual(lines.slice(0, written.length).map((line) => line.trim()));
    } finally {
      await destination.end();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
