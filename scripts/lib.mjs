// Shared steps of `npm start` and `npm test`: make a fresh clone runnable without manual setup.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
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

/**
 * Everything the console's bundle is built from: its sources, public files and configuration,
 * the contract it imports, the TypeScript base configuration, and the exact dependency versions
 * (the lockfile). Directories are read whole, except what they install or build.
 */
export const CONSOLE_INPUTS = [
  'apps/web',
  'packages/contract',
  'tsconfig.base.json',
  'package.json',
  'package-lock.json',
];
const NOT_INPUTS = new Set(['node_modules', 'dist']);

/** Where a successful build records the hash of the inputs it was built from. */
export const CONSOLE_STAMP = 'apps/web/dist/.inputs-sha256';

function inputFiles(base, relative) {
  const full = path.join(base, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .filter((entry) => !NOT_INPUTS.has(entry))
    .flatMap((entry) => inputFiles(base, path.posix.join(relative, entry)));
}

/**
 * A content hash of the inputs (paths and bytes), not their modification times: a `git checkout`
 * of an older commit gives files an older or newer time at will, and only their content counts.
 */
export function hashInputs(base, inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => inputFiles(base, input)).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(base, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether the console must be (re)built: no build, or one from other inputs than today's. */
export function consoleBuildIsStale(base = root) {
  const stamp = path.join(base, CONSOLE_STAMP);
  if (!existsSync(path.join(base, 'apps/web/dist/index.html')) || !existsSync(stamp)) return true;
  return readFileSync(stamp, 'utf8').trim() !== hashInputs(base, CONSOLE_INPUTS);
}

/** Builds the console when it is missing or was built from other inputs than today's. */
export function ensureConsoleBuilt() {
  if (!consoleBuildIsStale()) return;
  const inputs = hashInputs(root, CONSOLE_INPUTS);
  console.log('> building the console');
  run('npm', ['run', 'build', '-w', 'apps/web']);
  // The build empties dist first, so a failed build leaves no stamp and the next start retries.
  writeFileSync(path.join(root, CONSOLE_STAMP), `${inputs}\n`);
}

/** The Chromium the browser tests launch (e2e/chromium.json), unless CHROMIUM_PATH names another. */
const CHROMIUM_DEFAULT = JSON.parse(readFileSync(path.join(root, 'e2e/chromium.json'), 'utf8')).executablePath;

export const CHROMIUM_MISSING =
  "Chromium is missing, so the browser tests did not run: install Debian's chromium as root " +
  '(apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary, then run npm test again';

/**
 * What the browser tests' Chromium needs: 'ready'; 'install' (root may install Debian's package);
 * or 'missing' (anyone else cannot, so every other suite runs and the run then fails saying how).
 */
export function chromiumPlan({ env = process.env, exists = existsSync, uid = process.getuid?.() } = {}) {
  if (env.CHROMIUM_PATH) return exists(env.CHROMIUM_PATH) ? 'ready' : 'missing';
  if (exists(CHROMIUM_DEFAULT)) return 'ready';
  return uid === 0 ? 'install' : 'missing';
}

/** Makes Debian's Chromium available when it can; answers why the browser tests cannot run, or null. */
export function ensureChromium() {
  const plan = chromiumPlan();
  if (plan === 'ready') return null;
  if (plan === 'missing') return CHROMIUM_MISSING;
  console.log('> installing chromium from Debian');
  try {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return null;
  } catch (error) {
    return `${CHROMIUM_MISSING} (${error instanceof Error ? error.message : error})`;
  }
}

export function gitRevision() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  } catch {
    return 'unknown';
  }
}
