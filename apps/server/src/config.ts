import path from 'node:path';
import { DEMO_AGENT_SECRET } from '@opsdeck/contract/live';
import { z } from 'zod';

/** Every environment variable the server reads; the README's configuration table mirrors it. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /** Default: http://localhost:<PORT>, so a server on another port still mails links to itself. */
  PUBLIC_URL: z.string().url().optional(),
  ADMIN_EMAIL: z.string().email().default('admin@opsdeck.test'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  DEMO: z.enum(['0', '1']).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Opsdeck <no-reply@opsdeck.test>'),
  APP_KEYS: z.string().default('opsdeck-console,opsdeck-agent'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  RESET_KEY_TTL_MINUTES: z.coerce.number().positive().default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  REDIS_URL: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
  LICENSE_SIGNING_KEY: z.string().optional(),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(20),
  AGENT_SECRET: z.string().min(8).optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('opsdeck'),
  LIVE_INSTANCE_TTL_MS: z.coerce.number().int().min(300).max(120_000).default(15_000),
  EXECUTION_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(8).max(36_500).default(400),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(30).max(36_500).default(730),
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['0', '1']).optional(),
  ALERT_CHECK_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  adminEmail: string;
  adminPassword: string | undefined;
  demo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  appKeys: ReadonlySet<string>;
  sessionTtlMs: number;
  resetKeyTtlMs: number;
  logLevel: string;
  webDist: string | undefined;
  /** Fastify's trustProxy: off unless set, since a trusted X-Forwarded-For decides sign-in throttling. */
  trustProxy: boolean | string[];
  /** An Ed25519 private key (PEM) that signs licence files; else one kept in DATA_DIR. Never logged. */
  licenseSigningKey: string | undefined;
  /** The largest workflow file accepted (MAX_UPLOAD_MB); a larger upload answers 413 and stores nothing. */
  maxUploadBytes: number;
  /** REDIS_URL: several instances share the live channel and the domain events through it. */
  redisUrl: string | undefined;
  /** The names of this installation's keys and channels in Redis (two installations may share one Redis). */
  redisPrefix: string;
  /** How long an instance that stopped answering keeps its agents listed on the others (ms). */
  liveInstanceTtlMs: number;
  /**
   * The installation's agent secret (X-App-Secret; docs/live-channel.md, "Agents"). The embedded
   * database defaults it to the demo's; with DATABASE_URL there is no default, and agents are
   * refused until it is set.
   */
  agentSecret: string | undefined;
  /** Execution logs (and queued runs) are kept this many days, by whole months; their rollups for ever. */
  executionLogRetentionDays: number;
  /** Agents' activity spans are kept this many days, by whole months; their rollups for ever (docs/monitor.md). */
  activityRetentionDays: number;
  /** Audit records are kept this many days (at least 30: the database refuses younger deletions; docs/audit.md). */
  auditRetentionDays: number;
  /**
   * WEBHOOK_ALLOW_LOOPBACK=1 (the demo's default): webhook endpoints may be `http://` on a loopback
   * address (tests, the demo). Otherwise only `https://` to public addresses (docs/webhooks.md, "Safety").
   */
  webhookAllowLoopback: boolean;
  /** How often the alert rules are checked (ms; docs/alerts.md). */
  alertCheckMs: number;
};

/** `true`, `false`, or the addresses and CIDR ranges of the proxies, comma-separated. */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means unset (`DATABASE_URL= npm start` runs on the embedded database).
  const parsed = Env.parse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    publicUrl: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ''),
    adminEmail: parsed.ADMIN_EMAIL,
    adminPassword: parsed.ADMIN_PASSWORD,
    // The demo is for the embedded database only: a real server gets just the provider admin.
    demo: parsed.DEMO !== '0' && !parsed.DATABASE_URL,
    smtpUrl: parsed.SMTP_URL || undefined,
    mailFrom: parsed.MAIL_FROM,
    appKeys: new Set(
      parsed.APP_KEYS.split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    ),
    sessionTtlMs: parsed.SESSION_TTL_HOURS * 3_600_000,
    resetKeyTtlMs: parsed.RESET_KEY_TTL_MINUTES * 60_000,
    logLevel: parsed.LOG_LEVEL,
    webDist: parsed.WEB_DIST,
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    licenseSigningKey: parsed.LICENSE_SIGNING_KEY,
    maxUploadBytes: Math.floor(parsed.MAX_UPLOAD_MB * 1024 * 1024),
    redisUrl: parsed.REDIS_URL,
    redisPrefix: parsed.REDIS_PREFIX,
    liveInstanceTtlMs: parsed.LIVE_INSTANCE_TTL_MS,
    agentSecret: parsed.AGENT_SECRET ?? (parsed.DATABASE_URL ? undefined : DEMO_AGENT_SECRET),
    executionLogRetentionDays: parsed.EXECUTION_LOG_RETENTION_DAYS,
    activityRetentionDays: parsed.ACTIVITY_RETENTION_DAYS,
    auditRetentionDays: parsed.AUDIT_RETENTION_DAYS,
    // The demo lets a receiver on this machine try webhooks out; a real installation does not.
    alertCheckMs: parsed.ALERT_CHECK_MS,
    webhookAllowLoopback:
      parsed.WEBHOOK_ALLOW_LOOPBACK === '1' ||
      (parsed.WEBHOOK_ALLOW_LOOPBACK === undefined && parsed.DEMO !== '0' && !parsed.DATABASE_URL),
  };
}
