import type { AuditQuery, AuditRecord } from '@opsdeck/contract/audit';
import { and, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { auditLog, auditSearchText } from '../../db/schema';
import type { AuditEntry } from '../../platform/audit';
import { likePattern } from '../../platform/search';
import { inScope, type TenantScope } from '../../platform/tenancy';

/**
 * Writes the records of one change in its transaction. The names are read in the same statement:
 * the actor's full name (and their token's), the company's, so that a record keeps them as they
 * were even after a rename or a deletion.
 */
export async function insertAuditEntries(tx: Tx, entries: readonly AuditEntry[]) {
  if (entries.length === 0) return;
  await tx.insert(auditLog).values(
    entries.map((entry) => ({
      at: entry.at,
      tenantId: entry.tenantId,
      companyName:
        entry.companyName ??
        (entry.tenantId === null ? null : sql`(select name from companies where tenant_id = ${entry.tenantId}::uuid)`),
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      actorTokenId: entry.actor.tokenId ?? null,
      actorName: entry.actor.name ?? actorNameOf(entry),
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      entityName: entry.entityName?.slice(0, 512) ?? null,
      changes: entry.changes,
      address: entry.address,
      userAgent: entry.userAgent,
    })),
  );
}

/** "First Last", or "First Last (token name)", read from the user's row when the record is written. */
function actorNameOf(entry: AuditEntry): SQL {
  const { id, tokenName } = entry.actor;
  const person = sql`(select first_name || ' ' || last_name from users where id = ${id})`;
  const named = sql`coalesce(${person}, ${`user ${id}`})`;
  return tokenName ? sql`${named} || ${` (token ${tokenName})`}` : named;
}

/** The words the page's search looks in, as the trigram index (migration 0021) has them. */
const searchable = auditSearchText(auditLog);

export type AuditFilter = Omit<AuditQuery, 'page' | 'size' | 'format'>;

function whereOf(scope: TenantScope, filter: AuditFilter): SQL | undefined {
  return and(
    inScope(auditLog.tenantId, scope),
    filter.from === undefined ? undefined : gte(auditLog.at, filter.from),
    filter.to === undefined ? undefined : lte(auditLog.at, filter.to),
    filter.actor === undefined ? undefined : eq(auditLog.actorId, filter.actor),
    filter.action === undefined ? undefined : eq(auditLog.action, filter.action),
    filter.entityType ? eq(auditLog.entityType, filter.entityType) : undefined,
    filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
    filter.search ? sql`${searchable} like ${likePattern(filter.search)}` : undefined,
  );
}

const columns = {
  id: auditLog.id,
  at: auditLog.at,
  tenantId: auditLog.tenantId,
  companyName: auditLog.companyName,
  actorType: auditLog.actorType,
  actorId: auditLog.actorId,
  actorName: auditLog.actorName,
  action: auditLog.action,
  entityType: auditLog.entityType,
  entityId: auditLog.entityId,
  entityName: auditLog.entityName,
  changes: auditLog.changes,
  address: auditLog.address,
  userAgent: auditLog.userAgent,
};

export type AuditRow = {
  id: number;
  at: number;
  tenantId: string | null;
  companyName: string | null;
  actorType: string;
  actorId: number | null;
  actorName: string;
  action: string;
  entityType: string;
  entityId: string | null;
  entityName: string | null;
  changes: unknown;
  address: string | null;
  userAgent: string | null;
};

export function toAuditRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    at: row.at,
    actor: { type: row.actorType as AuditRecord['actor']['type'], id: row.actorId, name: row.actorName },
    tenantId: row.tenantId,
    companyName: row.companyName,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    entityName: row.entityName,
    changes: Array.isArray(row.changes) ? (row.changes as AuditRecord['changes']) : [],
    address: row.address,
    userAgent: row.userAgent,
  };
}

/** One page, newest first. */
export function findAuditPage(db: Executor, scope: TenantScope, filter: AuditFilter, offset: number, size: number) {
  return db
    .select(columns)
    .from(auditLog)
    .where(whereOf(scope, filter))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(size)
    .offset(offset) as Promise<AuditRow[]>;
}

/** How many records match, counting at most `cap` (a count of five million rows is not a page's business). */
export async function countAudit(db: Executor, scope: TenantScope, filter: AuditFilter, cap: number) {
  const matching = db.select({ one: sql`1` }).from(auditLog).where(whereOf(scope, filter)).limit(cap).as('matching');
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(matching);
  return row?.count ?? 0;
}

export async function findAuditRecord(db: Executor, scope: TenantScope, id: number) {
  const [row] = await db
    .select(columns)
    .from(auditLog)
    .where(and(eq(auditLog.id, id), inScope(auditLog.tenantId, scope)));
  return row as AuditRow | undefined;
}

/**
 * Every matching record, newest first, read `batch` at a time after the last one seen (keyset on
 * (at, id)), so that an export of millions holds one batch in memory.
 */
export async function* iterateAudit(db: Executor, scope: TenantScope, filter: AuditFilter, batch = 1_000) {
  let last: { at: number; id: number } | undefined;
  for (;;) {
    const rows = (await db
      .select(columns)
      .from(auditLog)
      .where(
        and(
          whereOf(scope, filter),
          last ? or(lt(auditLog.at, last.at), and(eq(auditLog.at, last.at), lt(auditLog.id, last.id))) : undefined,
        ),
      )
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(batch)) as AuditRow[];
    yield* rows;
    if (rows.length < batch) return;
    const end = rows[rows.length - 1]!;
    last = { at: end.at, id: end.id };
  }
}

/**
 * Retention (AUDIT_RETENTION_DAYS): deletes records older than the cutoff, `batch` at a time, in
 * transactions that tell the append-only trigger so (it still refuses rows younger than 30 days).
 */
export async function deleteAuditBefore(
  db: Executor,
  scope: TenantScope,
  cutoff: number,
  batch = 5_000,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('opsdeck.audit_retention', 'on', true)`);
      const oldest = tx
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(and(lt(auditLog.at, cutoff), inScope(auditLog.tenantId, scope)))
        .limit(batch);
      const gone = await tx.delete(auditLog).where(inArray(auditLog.id, oldest)).returning({ id: auditLog.id });
      return gone.length;
    });
    deleted += count;
    if (count < batch) return deleted;
  }
}
