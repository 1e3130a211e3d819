// @ts-check
// Seconds from `npm start` until GET /api/health answers, on a prepared clone (dependencies
// installed, console built): once on an empty data directory (migrations and the demo seed),
// then again on the same directory (a restart).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, waitFor } from './lib.mjs';

const port = Number(process.env.BENCH_PORT ?? 8283);
const dataDir = mkdtempSync(path.join(tmpdir(), 'opsdeck-startup-'));

/** @param {string} label */
async function timeStart(label) {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  const seconds = (performance.now() - started) / 1000;
  if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  console.log(`${label.padEnd(34)} ${seconds.toFixed(2)} s`);
  return seconds;
}

await timeStart('npm start, empty data directory');
await timeStart('npm start, existing data directory');
rmSync(dataDir, { recursive: true, force: true });
