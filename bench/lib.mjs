// @ts-check
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {string} url
 * @param {number} [timeoutMs]
 */
export async function waitFor(url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Runs the Opsdeck server on a port and a data directory of its own (removed when it stops, unless
 * the caller named one); output discarded.
 * @param {{ port: number, dataDir?: string, env?: Record<string, string> }} options
 */
export function startServer({ port, dataDir, env = {} }) {
  const ownDir = dataDir === undefined;
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'opsdeck-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      PUBLIC_URL: `http://localhost:${port}`,
      ...env,
    },
  });
  return {
    child,
    dataDir: dir,
    /** @returns {Promise<void>} */
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          if (ownDir) rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
