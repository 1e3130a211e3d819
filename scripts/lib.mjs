// Shared steps of `npm start` and `npm test`: make a fresh clone runnable without manual setup.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install` rather than `npm ci`: it honours the lockfile too, and tolerates optional
  // platform packages (Biome's for other systems) that this machine's registry does not carry.
  console.log('> installing dependencies');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/** Builds the console when its output is missing or older than its sources or the contract. */
export function ensureConsoleBuilt() {
  const built = path.join(root, 'apps/web/dist/index.html');
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    'packages/contract/src',
  ];
  const newestSource = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource) return;
  console.log('> building the console');
  run('npm', ['run', 'build', '-w', 'apps/web']);
}

/** Debian's Chromium for the browser tests (Playwright's own download does not work here). */
export function ensureChromium() {
  if (process.env.CHROMIUM_PATH || existsSync('/usr/bin/chromium')) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(
      "Chromium is missing: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH",
    );
  }
  console.log('> installing chromium from Debian');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

export function gitRevision() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  } catch {
    return 'unknown';
  }
}
