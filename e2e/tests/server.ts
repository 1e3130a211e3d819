import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The whole server (`node --import tsx apps/server/src/main.ts`) on its own port and data
 * directory (an embedded PGlite database seeded with the demo on its first start, or the
 * PostgreSQL database `env.DATABASE_URL` names: tests/postgres.ts), to start, stop and start again
 * on the same port and database.
 */
export class TestServer {
  readonly url: string;
  private process: ChildProcess | undefined;
  private log = '';

  constructor(
    readonly port: number,
    readonly dataDir: string,
    /** More of the server's environment: DATABASE_URL for a PostgreSQL database. */
    private readonly env: Record<string, string> = {},
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts it, and resolves once `/api/health` answers. */
  async start(timeoutMs = 180_000) {
    const main = path.resolve(import.meta.dirname, '../../apps/server/src/main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        DEMO: '1',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: this.url,
        // The webhook tests' receivers listen on 127.0.0.1 over http (apps/server/src/config.ts).
        WEBHOOK_ALLOW_LOOPBACK: '1',
        // Alert rules checked every second, not every minute: the alerts test sees one raised at once.
        ALERT_CHECK_MS: '1000',
        // The run's copy of the built console (global-setup.ts), when there is one.
        ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
        ...this.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.log = (this.log + chunk.toString()).slice(-4_000);
    });
    this.process = child;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the server on ${this.url} exited (${child.exitCode ?? child.signalCode}):\n${this.log}`);
      const healthy = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return;
      // The next probe when the server has exited or a quarter of a second has passed, whichever first.
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 250))]);
    }
    throw new Error(`the server did not answer on ${this.url} within ${timeoutMs} ms:\n${this.log}`);
  }

  /** SIGTERM, and waits for the exit; SIGKILL after `graceMs`. True when it exited of itself. */
  async stop(graceMs = 5_000): Promise<boolean> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    let graceful = true;
    const timer = setTimeout(() => {
      graceful = false;
      child.kill('SIGKILL');
    }, graceMs);
    await exited;
    clearTimeout(timer);
    return graceful;
  }

  /** SIGKILL at once, without waiting: for a worker process that is exiting. */
  kill() {
    this.process?.kill('SIGKILL');
  }
}

async function isFree(port: number) {
  return new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The first port of `from`–`to` nobody listens on; else one the system picks. */
export async function freePort(from: number, to = from): Promise<number> {
  for (let port = from; port <= to; port += 1) if (await isFree(port)) return port;
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
