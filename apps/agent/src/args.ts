import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

export const AGENT_USAGE = `Usage: npm run agent -- --key KEY --mac MAC [options]
       npm run agent -- --license-file FILE.lic [--mac MAC] [options]

  --key KEY             the full licence key
  --mac MAC             this machine's MAC address (with --license-file: default the file's first)
  --license-file FILE   a .lic licence file: takes its key and first MAC address
  --url URL             the server (default http://localhost:8080)
  --hostname NAME       default this machine's name
  --speed N             steps take expectedSeconds / N (default 1)
  --failure-rate R      chance a run fails, 0 to 1 (default 0.1)
  --self-start N        runs of its own per hour (default 3, 0: none)
  --verbose             log every step and workflow list too
  --help

The agent secret is read from AGENT_SECRET (default: the embedded demo's).`;

export const FLEET_USAGE = `Usage: npm run agents -- --count N [options]
       npm run agents -- --demo [options]

  --count N             how many agents (keys with a licence file first, then keys it generates)
  --per-company K       at most K keys with a licence file per company (default 3; --demo: all)
  --url URL             the server (default http://localhost:8080)
  --admin-email E       the provider admin (default ADMIN_EMAIL or admin@opsdeck.test)
  --admin-password P    default ADMIN_PASSWORD or the demo's password
  --speed N             steps take expectedSeconds / N (default 1)
  --failure-rate R      chance a run fails, 0 to 1 (default 0.1)
  --self-start N        runs of its own per agent and hour (default 3)
  --demo                the fleet of npm start: every demo key with a licence file, each acting out its
                        person's working days (runs of its own on 3 a company), quiet; exits 0 when
                        there is no demo
  --verbose             log every agent's events
  --help`;

export interface AgentArgs {
  help: boolean;
  key: string | undefined;
  mac: string | undefined;
  licenseFile: string | undefined;
  url: string;
  hostname: string | undefined;
  speed: number;
  failureRate: number;
  selfStartPerHour: number;
  verbose: boolean;
}

export interface FleetArgs {
  help: boolean;
  count: number | undefined;
  perCompany: number;
  url: string;
  adminEmail: string;
  adminPassword: string;
  speed: number;
  failureRate: number;
  selfStartPerHour: number;
  demo: boolean;
  verbose: boolean;
}

export const DEFAULT_URL = 'http://localhost:8080';
export const DEFAULT_ADMIN_EMAIL = 'admin@opsdeck.test';
/** The embedded demo's admin password (apps/server/src/seed/provider-admin.ts). */
export const DEMO_ADMIN_PASSWORD = 'opsdeck-demo';

function parse(argv: string[], options: ParseArgsOptionsConfig) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function number(
  value: string | boolean | undefined,
  name: string,
  fallback: number,
  check: (n: number) => boolean,
  rule: string,
) {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be ${rule} (got "${String(value)}")`);
  return n;
}

const speedOf = (value: string | boolean | undefined) =>
  number(value, 'speed', 1, (n) => n > 0, 'a number greater than 0');
const failureRateOf = (value: string | boolean | undefined) =>
  number(value, 'failure-rate', 0.1, (n) => n >= 0 && n <= 1, 'a number from 0 to 1');
const selfStartOf = (value: string | boolean | undefined, fallback = 3) =>
  number(value, 'self-start', fallback, (n) => n >= 0, 'a number of runs per hour, 0 or more');

/**
 * Runs of its own an hour for each of the demo's runners (3 a company): 15, so that a company's
 * agents start one every minute or two and the Events page moves on first start.
 */
export const DEMO_SELF_START_PER_HOUR = 15;

function urlOf(value: string | boolean | undefined): string {
  const url = typeof value === 'string' ? value : DEFAULT_URL;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`--url must be an http(s) URL (got "${url}")`);
  }
  return url.replace(/\/+$/, '');
}

const MAC = /^([0-9A-Fa-f]{2}([:-]))([0-9A-Fa-f]{2}\2){4}[0-9A-Fa-f]{2}$/;

const str = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

export function parseAgentArgs(argv: string[]): AgentArgs {
  const values = parse(argv, {
    key: { type: 'string' },
    mac: { type: 'string' },
    'license-file': { type: 'string' },
    url: { type: 'string' },
    hostname: { type: 'string' },
    speed: { type: 'string' },
    'failure-rate': { type: 'string' },
    'self-start': { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const args: AgentArgs = {
    help: values.help === true,
    key: str(values.key),
    mac: str(values.mac),
    licenseFile: str(values['license-file']),
    url: urlOf(values.url),
    hostname: str(values.hostname),
    speed: speedOf(values.speed),
    failureRate: failureRateOf(values['failure-rate']),
    selfStartPerHour: selfStartOf(values['self-start']),
    verbose: values.verbose === true,
  };
  if (args.help) return args;
  if (args.key && args.licenseFile) throw new UsageError('give --key or --license-file, not both');
  if (!args.key && !args.licenseFile) throw new UsageError('--key (with --mac) or --license-file is required');
  if (args.key && !args.mac) throw new UsageError('--mac is required with --key');
  if (args.mac && !MAC.test(args.mac))
    throw new UsageError(`--mac must be six hexadecimal pairs, like AA:BB:CC:DD:EE:FF (got "${args.mac}")`);
  return args;
}

export function parseFleetArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): FleetArgs {
  const values = parse(argv, {
    count: { type: 'string' },
    'per-company': { type: 'string' },
    url: { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
    speed: { type: 'string' },
    'failure-rate': { type: 'string' },
    'self-start': { type: 'string' },
    demo: { type: 'boolean' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const demo = values.demo === true;
  const count =
    values.count === undefined
      ? undefined
      : number(
          values.count,
          'count',
          0,
          (n) => Number.isInteger(n) && n >= 1 && n <= 10_000,
          'a whole number from 1 to 10000',
        );
  const args: FleetArgs = {
    help: values.help === true,
    count,
    perCompany: number(
      values['per-company'],
      'per-company',
      demo ? Number.POSITIVE_INFINITY : 3,
      (n) => Number.isInteger(n) && n >= 1,
      'a whole number, 1 or more',
    ),
    url: urlOf(values.url),
    adminEmail: str(values['admin-email']) ?? env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: str(values['admin-password']) ?? env.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD,
    speed: speedOf(values.speed),
    failureRate: failureRateOf(values['failure-rate']),
    selfStartPerHour: selfStartOf(values['self-start'], demo ? DEMO_SELF_START_PER_HOUR : 3),
    demo,
    verbose: values.verbose === true,
  };
  if (!args.help && !demo && count === undefined) throw new UsageError('--count N (or --demo) is required');
  return args;
}
