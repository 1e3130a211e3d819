import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import type { CreatedWebhookEndpoint, WebhookDelivery } from '@opsdeck/contract/webhooks';
import { describe, expect, it } from 'vitest';
import { RUNS_OWN_PROCESS_TESTS } from '../../../test/database';
import { freePort } from '../../../test/postgres-cluster';
import { FAULTS_ADMIN, ServerProcess } from '../../../test/sigkill-uploads';

/**
 * The outbox survives a SIGKILL (docs/webhooks.md, "Delivery"): an event written, the server killed
 * before it could deliver it (its receiver is not up yet), the server started again on its data:
 * the delivery arrives once the receiver is up, exactly once.
 */
describe.runIf(RUNS_OWN_PROCESS_TESTS)('webhooks across a SIGKILL', () => {
  it('delivers after the restart an event written before the kill, exactly once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-webhook-kill-'));
    const server = new ServerProcess(dataDir, { kind: 'pglite' }, 300_000, { WEBHOOK_ALLOW_LOOPBACK: '1' });
    const receiverPort = await freePort();
    const received: IncomingHttpHeaders[] = [];
    const receiver = createServer((request, response) => {
      received.push(request.headers);
      request.resume();
      request.on('end', () => response.writeHead(200).end('ok'));
    });
    try {
      await server.start();
      const call = async <T>(method: string, urlPath: string, body?: unknown, token?: string) => {
        const response = await fetch(`${server.base}/api${urlPath}`, {
          method,
          headers: {
            [HEADERS.appKey]: CONSOLE_APP_KEY,
            ...(token ? { [HEADERS.authToken]: token } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect(response.ok, `${method} ${urlPath}: ${response.status}`).toBe(true);
        return (await response.json()) as T;
      };
      const { token } = await call<{ token: string }>('POST', '/login', {
        username: FAULTS_ADMIN.email,
        password: FAULTS_ADMIN.password,
      });
      // The receiver's port is free: nothing answers there until after the restart.
      const endpoint = await call<CreatedWebhookEndpoint>(
        'POST',
        '/webhook',
        { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['user.created'] },
        token,
      );
      const delivery = await call<WebhookDelivery>('POST', `/webhook/${endpoint.id}/test`, undefined, token);
      await server.kill();

      await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
      await server.start();
      // Due at once, or 5 s after a first attempt that found nobody listening.
      await expect.poll(() => received.length, { timeout: 60_000, interval: 200 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(received.map((headers) => headers['webhook-id'])).toEqual([delivery.eventId]);
      const log = await call<{ items: WebhookDelivery[] }>(
        'GET',
        `/webhook/${endpoint.id}/deliveries`,
        undefined,
        token,
      );
      expect(log.items).toEqual([expect.objectContaining({ id: delivery.id, status: 'succeeded', statusCode: 200 })]);
    } finally {
      await server.kill();
      await new Promise((resolve) => receiver.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});
