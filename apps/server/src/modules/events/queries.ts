import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { accounts, companies, executionLastRuns, licenses, workflows } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

/** A licence key's columns as an agent presents it: the account, its licence and company. */
const keyColumns = {
  accountId: accounts.id,
  partialKey: accounts.partialKey,
  licenseId: licenses.id,
  tenantId: accounts.tenantId,
  companyName: companies.name,
  fullName: accounts.fullName,
  emailAddress: accounts.emailAddress,
  macAddresses: accounts.macAddresses,
  keyInvalidatedAt: accounts.invalidatedAt,
  archived: accounts.archived,
  expirationDate: licenses.expirationDate,
  licenseInvalidatedAt: licenses.invalidatedAt,
};

/** A licence key as an agent presents it, by the key's digest. */
export async function findAgentKey(db: Executor, keyDigest: string) {
  const [row] = await db
    .select(keyColumns)
    .from(accounts)
    .innerJoin(licenses, eq(licenses.id, accounts.licenseId))
    .leftJoin(companies, eq(companies.id, licenses.companyId))
    .where(eq(accounts.keyDigest, keyDigest))
    .limit(1);
  return row;
}

/**
 * The statement an agent's CONNECT runs, prepared once per database connection on PostgreSQL
 * (docs/performance.md, "Live channel"): 10,000 agents reconnecting run it 10,000 times. It reads
 * the key as `findAgentKey` does, with the end of its last stored run of each workflow (the list's
 * `lastExecution`, docs/live-channel.md): what a CONNECT needs, in one round trip.
 */
export function prepareAgentStatements(db: Db) {
  const connectingKey = db
    .select({
      ...keyColumns,
      lastRuns: sql<
        [number, number][] | string | null
      >`(select json_agg(json_build_array(${executionLastRuns.workflowId}, ${executionLastRuns.lastEnd})) from ${executionLastRuns} where ${executionLastRuns.accountId} = ${accounts.id})`,
    })
    .from(accounts)
    .innerJoin(licenses, eq(licenses.id, accounts.licenseId))
    .leftJoin(companies, eq(companies.id, licenses.companyId))
    .where(eq(accounts.keyDigest, sql.placeholder('keyDigest')))
    .limit(1)
    .prepare('opsdeck_connecting_agent_key_v1');
  return {
    async connectingAgentKey(keyDigest: string) {
      const [row] = await connectingKey.execute({ keyDigest });
      if (!row) return undefined;
      const { lastRuns, ...key } = row;
      // json: parsed by node-postgres and PGlite alike, a string should a driver leave it as text.
      const pairs = (typeof lastRuns === 'string' ? JSON.parse(lastRuns) : (lastRuns ?? [])) as [number, number][];
      return { ...key, lastRuns: new Map(pairs.map(([workflowId, end]) => [Number(workflowId), Number(end)])) };
    },
  };
}

export type AgentKeyRow = NonNullable<Awaited<ReturnType<typeof findAgentKey>>>;

/**
 * A generated key takes the MAC address of the first machine that connects with it
 * (docs/live-channel.md, "Agents"): only while it has none, so that two machines racing for it
 * cannot both win.
 */
export async function claimMacAddress(
  db: Executor,
  scope: TenantScope,
  accountId: number,
  macAddress: string,
  hostname: string,
) {
  const rows = await db
    .update(accounts)
    .set({ macAddresses: [macAddress], hostname: sql`coalesce(${accounts.hostname}, ${hostname})` })
    .where(
      and(
        eq(accounts.id, accountId),
        sql`cardinality(${accounts.macAddresses}) = 0`,
        inScope(accounts.tenantId, scope),
      ),
    )
    .returning({ id: accounts.id });
  return rows.length > 0;
}

/** The workflows an agent of a tenant may run: its company's, not archived, by name. */
export async function runnableWorkflows(db: Executor, tenantId: string, ids?: readonly number[]) {
  return db
    .select({ id: workflows.id, name: workflows.name })
    .from(workflows)
    .where(
      and(
        eq(workflows.tenantId, tenantId),
        eq(workflows.archived, false),
        ids ? inArray(workflows.id, [...ids]) : undefined,
      ),
    )
    .orderBy(asc(workflows.name), asc(workflows.id));
}
