import { type SQL, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { likePattern } from '../../platform/search';
import type { DirectoryRow } from './queries';

/**
 * The SQL of the Workflows table's pages: a directory's items, and the search. Each page is one
 * statement that reads only the rows it shows (docs/performance.md, "The workflows table at 500
 * requests a second"): the ids of the page come from an index in the page's order (for a
 * directory, from the index alone, so a deep page skips index entries, not rows), then those rows
 * are read with their people's names, whether they are premium, and (search hits) the names of the
 * directories above them. The totals are counted apart, so that the caller can keep them
 * (`directoryCounts`, `searchCount`).
 */

/** A listed item: a directory (kind 0) or a live workflow (kind 1), as one page row. */
export type ItemRow = {
  kind: number;
  id: number;
  name: string;
  file_name: string;
  description: string;
  size: number | null;
  /** Whether a step of the workflow uses an activity the 'pro' licence type unlocks (premium). */
  premium: boolean;
  directory_id: number;
  created_at: string | number;
  updated_at: string | number;
  /** The complete names of who made and last changed it ('' when nobody, or nobody any more). */
  creator: string;
  updater: string;
};

/** A search hit: where it is, as the names of the directories below its tree's root, and whose. */
export type HitRow = ItemRow & { tenant_id: string; company: string | null; below_root: string[] | null };

export type ItemOrder = { column: 'name' | 'description' | 'created_at' | 'updated_at' | 'size'; descending: boolean };

/**
 * The order of a page of workflows, as the indexes of migration 0019 hold it: the text columns
 * lowered, then the id. Every column sorted on is NOT NULL, so no NULLS clause is needed, and
 * writing one (`asc nulls first`) would keep PostgreSQL from walking those indexes.
 */
function workflowOrder(order: ItemOrder, alias: 'w' | 'page'): SQL {
  const direction = order.descending ? 'desc' : 'asc';
  const key =
    alias === 'page'
      ? 'page.sort_key'
      : order.column === 'name' || order.column === 'description'
        ? `lower(w.${order.column})`
        : `w.${order.column}`;
  return sql.raw(`${key} ${direction}, ${alias}.id ${direction}`);
}

/**
 * A directory's subdirectories in the order asked. They have no size and no description: sorted
 * by either, they keep the order of their ids.
 */
function directoryOrder(order: ItemOrder): SQL {
  const direction = order.descending ? 'desc' : 'asc';
  const key =
    order.column === 'name'
      ? 'lower(d.name)'
      : order.column === 'size' || order.column === 'description'
        ? null
        : `d.${order.column}`;
  return sql.raw(`${key === null ? '' : `${key} ${direction}, `}d.id ${direction}`);
}

const sortKey = (order: ItemOrder) =>
  sql.raw(order.column === 'name' || order.column === 'description' ? `lower(w.${order.column})` : `w.${order.column}`);

const completeName = (alias: string) => sql.raw(`coalesce(trim(${alias}.first_name || ' ' || ${alias}.last_name), '')`);

/** A workflow is premium when one of its steps uses a live activity the 'pro' licence type unlocks. */
const PREMIUM = sql`exists (
  select 1 from activities a
  join license_type_activities l on l.activity_id = a.id and l.license_type_key = 'pro'
  where a.archived_at is null and lower(a.key) in (select lower(k) from unnest(w.activity_keys) k)
)`;

/** The columns of a listed workflow `w`, its people `cu` and `uu` joined. */
const WORKFLOW_COLUMNS = sql`1 as kind, w.id, w.name, w.file_name, w.description, w.size, ${PREMIUM} as premium,
  w.directory_id, w.created_at, w.updated_at, ${completeName('cu')} as creator, ${completeName('uu')} as updater`;

const PEOPLE = (alias: 'w' | 'd') =>
  sql.raw(`left join users cu on cu.id = ${alias}.created_by left join users uu on uu.id = ${alias}.updated_by`);

/** How many subdirectories and live workflows a directory holds. */
export async function directoryCounts(db: Executor, directory: DirectoryRow) {
  const [counts] = await selectRows<{ directories: number; workflows: number }>(
    db,
    sql`select (select count(*) from directories d where d.tenant_id = ${directory.tenantId} and d.parent_id = ${directory.id})::int as directories,
               (select count(*) from workflows w where w.directory_id = ${directory.id} and w.archived = false)::int as workflows`,
  );
  return { directories: counts?.directories ?? 0, workflows: counts?.workflows ?? 0 };
}

/**
 * One page of a directory: its directories first, then its live workflows, each group in the
 * order asked. `directories` is how many directories it holds (from `directoryCounts`): the page
 * asks the workflows for `offset - directories`, so their ids come from the index of the order.
 */
export async function directoryPage(
  db: Executor,
  directory: DirectoryRow,
  directories: number,
  page: { offset: number; limit: number; order: ItemOrder },
): Promise<ItemRow[]> {
  const rows: ItemRow[] = [];
  if (page.offset < directories) {
    rows.push(
      ...(await selectRows<ItemRow>(
        db,
        sql`select 0 as kind, d.id, d.name, d.name as file_name, '' as description, null::int as size,
                   false as premium, d.parent_id as directory_id, d.created_at, d.updated_at,
                   ${completeName('cu')} as creator, ${completeName('uu')} as updater
            from directories d ${PEOPLE('d')}
            where d.tenant_id = ${directory.tenantId} and d.parent_id = ${directory.id}
            order by ${directoryOrder(page.order)} limit ${page.limit} offset ${page.offset}`,
      )),
    );
  }
  const limit = page.limit - rows.length;
  if (limit <= 0) return rows;
  const offset = Math.max(0, page.offset - directories);
  rows.push(
    ...(await selectRows<ItemRow>(
      db,
      sql`select ${WORKFLOW_COLUMNS}
          from (${directoryWorkflowIds(directory, { order: page.order, limit, offset })}) page
          join workflows w on w.id = page.id
          ${PEOPLE('w')}
          order by ${workflowOrder(page.order, 'page')}`,
    )),
  );
  return rows;
}

/**
 * The ids of a page of a directory's workflows, with their sort key: read from the index of the
 * order alone (migration 0019), so a deep page skips index entries, neither reading nor sorting
 * the rows before it.
 */
export const directoryWorkflowIds = (
  directory: Pick<DirectoryRow, 'id'>,
  page: { order: ItemOrder; limit: number; offset: number },
) => sql`select w.id, ${sortKey(page.order)} as sort_key from workflows w
  where w.directory_id = ${directory.id} and w.archived = false
  order by ${workflowOrder(page.order, 'w')} limit ${page.limit} offset ${page.offset}`;

export type WorkflowSearch = { text?: string; from?: number; to?: number };
/** Where a search looks: a directory (`deep`: and everything below it), or every company's tree (null). */
export type SearchWithin = { directory: DirectoryRow | null; deep: boolean };

/**
 * The conditions of a search: live workflows of the place whose name or description contains the
 * text (through the trigram indexes of migration 0019, on PostgreSQL and PGlite alike) and whose
 * createDate is in [from, to].
 */
function searchWhere(within: SearchWithin, search: WorkflowSearch): SQL {
  const { directory } = within;
  const conditions: SQL[] = [sql`w.archived = false`, sql`w.directory_id is not null`];
  if (directory && !within.deep) {
    conditions.push(sql`w.directory_id = ${directory.id}`);
  } else if (directory) {
    conditions.push(sql`w.tenant_id = ${directory.tenantId}`);
    if (directory.parentId !== null) {
      conditions.push(
        sql`w.directory_id in (select d.id from directories d where d.tenant_id = ${directory.tenantId} and d.id_path like ${`${directory.idPath}%`})`,
      );
    }
  }
  if (search.text) {
    const pattern = likePattern(search.text);
    conditions.push(sql`(lower(w.name) like ${pattern} or lower(w.description) like ${pattern})`);
  }
  if (search.from !== undefined) conditions.push(sql`w.created_at >= ${search.from}`);
  if (search.to !== undefined) conditions.push(sql`w.created_at <= ${search.to}`);
  return sql.join(conditions, sql` and `);
}

/** The count of a search's hits (exported for the test that reads its plan). */
export const searchCountSql = (within: SearchWithin, search: WorkflowSearch) =>
  sql`select count(*)::int as count from workflows w where ${searchWhere(within, search)}`;

/** How many workflows a search finds. */
export async function searchCount(db: Executor, within: SearchWithin, search: WorkflowSearch): Promise<number> {
  const [row] = await selectRows<{ count: number }>(db, searchCountSql(within, search));
  return Number(row?.count ?? 0);
}

/**
 * The ids of one page of a search's hits, in the order asked: what the view keeps between requests
 * (view.ts), the hits' rows being read fresh by `searchHits`.
 */
export async function searchPageIds(
  db: Executor,
  within: SearchWithin,
  search: WorkflowSearch,
  page: { offset: number; limit: number; order: ItemOrder },
): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`select w.id from workflows w
        where ${searchWhere(within, search)}
        order by ${workflowOrder(page.order, 'w')} limit ${page.limit} offset ${page.offset}`,
  );
  return rows.map((row) => Number(row.id));
}

/** The hits of `ids`, in that order, each with the names of the directories between its tree's root and it. */
export async function searchHits(db: Executor, ids: readonly number[]): Promise<HitRow[]> {
  if (ids.length === 0) return [];
  return selectRows<HitRow>(
    db,
    sql`select ${WORKFLOW_COLUMNS}, w.tenant_id, c.name as company,
               (select array_agg(a.name order by p.n)
                from unnest(string_to_array(trim(both '/' from d.id_path), '/')::int[]) with ordinality p(id, n)
                join directories a on a.id = p.id
                where p.n > 1) as below_root
        from unnest(array[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::int[]) with ordinality page(id, n)
        join workflows w on w.id = page.id
        join directories d on d.id = w.directory_id
        left join companies c on c.tenant_id = w.tenant_id
        ${PEOPLE('w')}
        order by page.n`,
  );
}
