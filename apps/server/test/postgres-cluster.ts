import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The machine's PostgreSQL binaries (Debian's layout); PG_BIN points elsewhere. */
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const initdb = path.join(PG_BIN, 'initdb');
const pgCtl = path.join(PG_BIN, 'pg_ctl');

/**
 * Why a private cluster cannot be made here, or undefined when it can: PostgreSQL's server
 * binaries (initdb, pg_ctl) must be there, and PostgreSQL refuses to run as root, so we start it
 * as the `postgres` OS user, which only root can switch to. The reason names what is missing.
 */
export function clusterUnavailableReason(): string | undefined {
  const missing = [initdb, pgCtl].filter((binary) => !existsSync(binary));
  if (missing.length)
    return `PostgreSQL's server binaries are missing: no ${missing.join(', no ')} (install PostgreSQL 15's server package, or set PG_BIN to the folder that holds initdb and pg_ctl)`;
  if (process.getuid?.() !== 0) return 'not root: cannot run initdb and pg_ctl as the postgres user';
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  } catch {
    return 'no postgres OS user (PostgreSQL refuses to run as root; initdb and pg_ctl run as postgres)';
  }
  return undefined;
}

/** A TCP port free on the loopback now (the OS's choice), for a server a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const asPostgres = (command: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', command, ...args]);

export type PostgresCluster = {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, TCP only). */
  url: string;
  start: () => Promise<void>;
  /**
   * `pg_ctl stop -m fast` (the default): PostgreSQL ends every session ("terminating connection due
   * to administrator command"). `immediate`: every process quits at once, as in a crash; the next
   * start recovers from the WAL.
   */
  stop: (mode?: 'fast' | 'immediate') => Promise<void>;
  /** Stops the server however it is and removes every file; safe to call twice. */
  destroy: () => Promise<void>;
};

/**
 * A PostgreSQL cluster of its own in a temporary directory owned by `postgres`, on a free port,
 * with its socket in that directory: tests may stop and start it without touching the machine's
 * server. Durability is off (fsync), since it is thrown away. `durableCommits` keeps
 * `synchronous_commit` on, so that a commit PostgreSQL acknowledged survives an immediate stop
 * (without it, the last 200 ms of commits may not have reached the WAL file yet).
 */
export async function createPostgresCluster(options: { durableCommits?: boolean } = {}): Promise<PostgresCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-pg-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  await chown(dir, uid, gid);

  let destroyed = false;
  // Should the test process die first, the cluster must not outlive it.
  const killOnExit = () => {
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', pgCtl, '-D', dataDir, 'stop', '-m', 'immediate'], {
        stdio: 'ignore',
      });
    } catch {
      // not running
    }
  };
  process.once('exit', killOnExit);

  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c full_page_writes=off',
    ...(options.durableCommits ? [] : ['-c synchronous_commit=off']),
  ].join(' ');
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await asPostgres(pgCtl, [
        '-D',
        dataDir,
        '-l',
        path.join(dir, 'server.log'),
        '-o',
        serverOptions,
        '-w',
        '-t',
        '30',
        'start',
      ]);
    },
    stop: async (mode = 'fast') => {
      await asPostgres(pgCtl, ['-D', dataDir, '-w', '-t', '30', 'stop', '-m', mode]);
    },
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      killOnExit();
      process.removeListener('exit', killOnExit);
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await asPostgres(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}
