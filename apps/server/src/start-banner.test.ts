import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { describe, expect, it } from 'vitest';
import { RUNS_OWN_PROCESS_TESTS } from '../test/database';
import { FAULTS_ADMIN, ServerProcess } from '../test/sigkill-uploads';

/**
 * Secrets stay out of logs (issue 21, docs/security.md): the start banner shows the provider
 * admin's password only when the server made it up, once; an ADMIN_PASSWORD the operator set
 * appears nowhere in what the server prints (stdout and stderr, its log at its most verbose
 * included), from its start through sign-ins to its shutdown.
 */

const occurrences = (text: string, part: string) => text.split(part).length - 1;

async function signIn(base: string, password: string) {
  const response = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ username: FAULTS_ADMIN.email, password }),
  });
  return response.status;
}

/** A server on a fresh data directory with `env`, started, given `work`, stopped; answers all it printed. */
async function printedBy(env: Record<string, string>, work: (server: ServerProcess) => Promise<void>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-banner-'));
  const server = new ServerProcess(dataDir, { kind: 'pglite' }, 300_000, { LOG_LEVEL: 'trace', ...env });
  try {
    await server.start();
    // The banner follows the first answer to /api/health by a moment.
    await expect.poll(() => server.output.includes('provider admin:'), { timeout: 30_000 }).toBe(true);
    await work(server);
    await server.stop();
    return server.output;
  } finally {
    await server.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe.runIf(RUNS_OWN_PROCESS_TESTS)('the start banner', () => {
  it('never prints an ADMIN_PASSWORD the operator set, nor logs it', async () => {
    const password = `operator-set-${randomBytes(12).toString('base64url')}`;
    const printed = await printedBy({ ADMIN_PASSWORD: password }, async (server) => {
      expect(await signIn(server.base, password)).toBe(200);
      expect(await signIn(server.base, `${password}-wrong`)).toBe(401);
    });
    expect(occurrences(printed, password)).toBe(0);
    expect(printed).toContain(`provider admin: ${FAULTS_ADMIN.email} (password: ADMIN_PASSWORD)`);
    // What was searched holds the log of the sign-ins too.
    expect(printed).toContain('/api/login');
  }, 600_000);

  it('prints a password the server made up, once', async () => {
    let generated = '';
    const printed = await printedBy({ ADMIN_PASSWORD: '' }, async (server) => {
      const line = server.output.match(/provider admin: (\S+) \/ (\S+) {2}\(generated: shown only this once\)/);
      expect(line?.[1]).toBe(FAULTS_ADMIN.email);
      generated = line?.[2] ?? '';
      expect(generated.length).toBeGreaterThanOrEqual(16);
      expect(await signIn(server.base, generated)).toBe(200);
    });
    expect(occurrences(printed, generated)).toBe(1);
  }, 600_000);
});
