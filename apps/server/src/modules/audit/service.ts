import { AUDIT_CSV_COLUMNS, type AuditQuery, type AuditRecord } from '@opsdeck/contract/audit';
import type { Page } from '@opsdeck/contract/paging';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import type { CsvFile, CsvValue } from '../../platform/csv';
import { notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/tenancy';
import * as q from './queries';

/** A page counts at most this many matches; past it, the total says "more than" (`totalCapped`). */
export const AUDIT_COUNT_CAP = 10_000;
/**
 * A word search counts only ten pages past the page asked for ("1–10 of more than 100"), as a
 * search engine does: each match is a row read from the table (the trigram index cannot answer
 * alone), and the records of a word are spread over years, so counting 1,000 matches of a word in
 * 1 % of the log took a quarter of a second (docs/performance.md, "The audit page").
 */
export const AUDIT_SEARCH_COUNT_PAGES = 10;
export type AuditService = ReturnType<typeof createAuditService>;

/**
 * Reading the audit log (docs/audit.md): a company's staff see their company's records, the provider
 * every company's and its own (or one company's, with X-Tenant-Id). Nobody writes here: records are
 * written by the platform, in the transaction of each change (platform/audit.ts).
 */
export function createAuditService(deps: { db: Db }) {
  const { db } = deps;

  async function page(auth: RequestAuth, query: AuditQuery): Promise<Page<AuditRecord>> {
    const scope = scopeOf(auth);
    const offset = (query.page - 1) * query.size;
    const cap = query.search ? offset + AUDIT_SEARCH_COUNT_PAGES * query.size : AUDIT_COUNT_CAP;
    const [rows, counted] = await Promise.all([
      q.findAuditPage(db, scope, query, offset, query.size),
      q.countAudit(db, scope, query, cap + 1),
    ]);
    const capped = counted > cap;
    return {
      items: rows.map(q.toAuditRecord),
      total: capped ? cap : counted,
      ...(capped ? { totalCapped: true as const } : {}),
      page: query.page,
      size: query.size,
    };
  }

  async function one(auth: RequestAuth, id: number): Promise<AuditRecord> {
    const row = await q.findAuditRecord(db, scopeOf(auth), id);
    if (!row) throw notFound('ERROR_AUDIT_RECORD_NOT_EXIST');
    return q.toAuditRecord(row);
  }

  /** Every matching record as CSV rows: times in ISO 8601 UTC, the changes as JSON. */
  function csv(
    auth: RequestAuth,
    query: AuditQuery,
  ): CsvFile<Record<(typeof AUDIT_CSV_COLUMNS)[number], CsvValue>> & {
    fileName: string;
  } {
    const rows = q.iterateAudit(db, scopeOf(auth), query);
    async function* lines() {
      for await (const row of rows) {
        yield {
          id: row.id,
          at: new Date(row.at).toISOString(),
          actorType: row.actorType,
          actorId: row.actorId,
          actorName: row.actorName,
          companyName: row.companyName,
          action: row.action,
          entityType: row.entityType,
          entityId: row.entityId,
          entityName: row.entityName,
          changes: JSON.stringify(row.changes ?? []),
          address: row.address,
          userAgent: row.userAgent,
        };
      }
    }
    return {
      columns: AUDIT_CSV_COLUMNS,
      rows: lines(),
      fileName: `audit-${new Date().toISOString().slice(0, 10)}.csv`,
    };
  }

  return { page, one, csv };
}
