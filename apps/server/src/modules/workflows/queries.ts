import { ROOT_DIRECTORY } from '@opsdeck/contract/workflows';
import { and, asc, desc, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { directories, workflows, workflowVersions } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

export type DirectoryRow = typeof directories.$inferSelect;
export type WorkflowRow = typeof workflows.$inferSelect;

const live = eq(workflows.archived, false);

/**
 * The root of a company's tree ('Workflows'), made with the company; made here too for a company
 * that has none (one made by a seed script), whoever asks first.
 */
export async function ensureTreeRoot(db: Executor, tenantId: string): Promise<DirectoryRow> {
  const existing = await findTreeRoot(db, tenantId);
  if (existing) return existing;
  const now = Date.now();
  const [made] = await db
    .insert(directories)
    .values({ tenantId, parentId: null, name: ROOT_DIRECTORY, idPath: '', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!made) return (await findTreeRoot(db, tenantId))!;
  const [root] = await db
    .update(directories)
    .set({ idPath: `/${made.id}/` })
    .where(eq(directories.id, made.id))
    .returning();
  return root!;
}

/** The roots of these companies' trees, by tenant id (a company whose root is not made yet has none). */
export async function treeRoots(db: Executor, tenantIds: readonly string[]): Promise<Map<string, DirectoryRow>> {
  if (tenantIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(directories)
    .where(and(inArray(directories.tenantId, [...tenantIds]), isNull(directories.parentId)));
  return new Map(rows.map((row) => [row.tenantId, row]));
}

async function findTreeRoot(db: Executor, tenantId: string) {
  const [row] = await db
    .select()
    .from(directories)
    .where(and(eq(directories.tenantId, tenantId), isNull(directories.parentId)));
  return row?.idPath ? row : undefined;
}

/** A child directory by name (case-insensitive), optionally locked for the caller's transaction. */
export async function findChildDirectory(db: Executor, parent: DirectoryRow, name: string, lock = false) {
  const query = db
    .select()
    .from(directories)
    .where(
      and(
        eq(directories.tenantId, parent.tenantId),
        eq(directories.parentId, parent.id),
        sql`lower(${directories.name}) = lower(${name})`,
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Locks a directory row of the scope until the transaction ends: every write into a directory takes this first. */
export async function lockDirectory(tx: Executor, scope: TenantScope, id: number) {
  const [row] = await tx
    .select()
    .from(directories)
    .where(and(eq(directories.id, id), inScope(directories.tenantId, scope)))
    .for('update');
  return row;
}

/** Whether a directory already holds an item of this name: a directory's name or a live workflow's file name. */
export async function nameTaken(db: Executor, directory: DirectoryRow, name: string): Promise<boolean> {
  const [row] = await selectRows<{ taken: boolean }>(
    db,
    sql`
    select exists (
      select 1 from directories d
      where d.tenant_id = ${directory.tenantId} and d.parent_id = ${directory.id} and lower(d.name) = lower(${name})
    ) or exists (
      select 1 from workflows w
      where w.directory_id = ${directory.id} and w.archived = false and lower(w.file_name) = lower(${name})
    ) as taken`,
  );
  return Boolean(row?.taken);
}

/** Every name a directory holds, lower-cased. */
export async function takenNames(db: Executor, directory: DirectoryRow): Promise<Set<string>> {
  const dirs = await db
    .select({ name: sql<string>`lower(${directories.name})` })
    .from(directories)
    .where(eq(directories.parentId, directory.id));
  const files = await db
    .select({ name: sql<string>`lower(${workflows.fileName})` })
    .from(workflows)
    .where(and(eq(workflows.directoryId, directory.id), live));
  return new Set([...dirs, ...files].map((row) => row.name));
}

export async function insertDirectory(
  tx: Executor,
  parent: DirectoryRow,
  values: { name: string; userId: number | null; now: number },
): Promise<DirectoryRow> {
  const [made] = await tx
    .insert(directories)
    .values({
      tenantId: parent.tenantId,
      parentId: parent.id,
      name: values.name,
      idPath: '',
      createdAt: values.now,
      createdBy: values.userId,
      updatedAt: values.now,
      updatedBy: values.userId,
    })
    .returning();
  const [row] = await tx
    .update(directories)
    .set({ idPath: `${parent.idPath}${made!.id}/` })
    .where(eq(directories.id, made!.id))
    .returning();
  return row!;
}

export async function renameDirectory(
  tx: Executor,
  scope: TenantScope,
  id: number,
  name: string,
  userId: number,
  now: number,
) {
  await tx
    .update(directories)
    .set({ name, updatedAt: now, updatedBy: userId })
    .where(and(eq(directories.id, id), inScope(directories.tenantId, scope)));
}

/** The live workflows of a directory and everything below it. */
const inSubtree = (directory: DirectoryRow) =>
  sql`${workflows.directoryId} in (select d.id from directories d where d.tenant_id = ${directory.tenantId} and d.id_path like ${`${directory.idPath}%`})`;

export async function countSubtree(db: Executor, directory: DirectoryRow) {
  const [dirs] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(directories)
    .where(and(eq(directories.tenantId, directory.tenantId), like(directories.idPath, `${directory.idPath}%`)));
  const [flows] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(workflows)
    .where(and(live, inSubtree(directory)));
  return { directories: dirs!.count, workflows: flows!.count };
}

/** Archives every workflow of the subtree and removes its directories (the children go by cascade). */
export async function removeSubtree(tx: Executor, directory: DirectoryRow, userId: number, now: number) {
  const archived = await tx
    .update(workflows)
    .set({ archived: true, updatedAt: now, updatedBy: userId })
    .where(and(live, inSubtree(directory)))
    .returning({ id: workflows.id, name: workflows.name, fileName: workflows.fileName });
  const removed = await tx
    .delete(directories)
    .where(and(eq(directories.tenantId, directory.tenantId), like(directories.idPath, `${directory.idPath}%`)))
    .returning({ id: directories.id });
  return { directories: removed.length, workflows: archived };
}

/** Names of directories of the scope by id (to spell the paths of search hits and zip entries). */
export async function directoryNames(
  db: Executor,
  scope: TenantScope,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: directories.id, name: directories.name })
    .from(directories)
    .where(and(inArray(directories.id, [...ids]), inScope(directories.tenantId, scope)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function findDirectory(db: Executor, scope: TenantScope, id: number) {
  const [row] = await db
    .select()
    .from(directories)
    .where(and(eq(directories.id, id), inScope(directories.tenantId, scope)));
  return row;
}

/** A live workflow of the scope, optionally locked for the caller's transaction. */
export async function findWorkflow(db: Executor, scope: TenantScope, id: number, lock = false) {
  const where = and(eq(workflows.id, id), live, inScope(workflows.tenantId, scope));
  const query = db.select().from(workflows).where(where);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findLiveWorkflowByFile(db: Executor, scope: TenantScope, directoryId: number, fileName: string) {
  const [row] = await db
    .select()
    .from(workflows)
    .where(
      and(
        eq(workflows.directoryId, directoryId),
        live,
        sql`lower(${workflows.fileName}) = lower(${fileName})`,
        inScope(workflows.tenantId, scope),
      ),
    );
  return row;
}

export async function insertWorkflow(tx: Executor, values: typeof workflows.$inferInsert) {
  const [row] = await tx.insert(workflows).values(values).returning();
  return row!;
}

export async function updateWorkflow(
  tx: Executor,
  scope: TenantScope,
  id: number,
  values: Partial<typeof workflows.$inferInsert>,
) {
  const [row] = await tx
    .update(workflows)
    .set(values)
    .where(and(eq(workflows.id, id), inScope(workflows.tenantId, scope)))
    .returning();
  return row!;
}

export async function insertVersion(tx: Executor, values: Omit<typeof workflowVersions.$inferInsert, 'number'>) {
  const [row] = await tx
    .insert(workflowVersions)
    .values({
      ...values,
      number: sql`(select coalesce(max(number), 0) + 1 from workflow_versions where workflow_id = ${values.workflowId})`,
    })
    .returning();
  return row!;
}

/** Every version of a workflow of the scope, newest first. */
export async function listVersions(db: Executor, scope: TenantScope, workflowId: number) {
  return db
    .select()
    .from(workflowVersions)
    .where(and(eq(workflowVersions.workflowId, workflowId), inScope(workflowVersions.tenantId, scope)))
    .orderBy(desc(workflowVersions.number));
}

/** The current (newest) version, or a given one, of a workflow of the scope. */
export async function findVersion(db: Executor, scope: TenantScope, workflowId: number, versionId?: number) {
  const [row] = await db
    .select()
    .from(workflowVersions)
    .where(
      and(
        eq(workflowVersions.workflowId, workflowId),
        versionId ? eq(workflowVersions.id, versionId) : undefined,
        inScope(workflowVersions.tenantId, scope),
      ),
    )
    .orderBy(desc(workflowVersions.number))
    .limit(1);
  return row;
}

/** The id paths and tenants of directories of the scope, to spell the full path of each. */
export async function idPaths(db: Executor, scope: TenantScope, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { idPath: string; tenantId: string }>();
  const rows = await db
    .select({ id: directories.id, idPath: directories.idPath, tenantId: directories.tenantId })
    .from(directories)
    .where(and(inArray(directories.id, [...ids]), inScope(directories.tenantId, scope)));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Every directory and live workflow of a subtree, for a zip: directories by id path, workflows with their current blob. */
export async function subtreeContents(db: Executor, directory: DirectoryRow) {
  const dirs = await db
    .select({ id: directories.id, parentId: directories.parentId, name: directories.name, idPath: directories.idPath })
    .from(directories)
    .where(and(eq(directories.tenantId, directory.tenantId), like(directories.idPath, `${directory.idPath}%`)))
    .orderBy(asc(directories.idPath));
  const files = await db
    .select({ id: workflows.id, directoryId: workflows.directoryId, fileName: workflows.fileName })
    .from(workflows)
    .where(and(live, inSubtree(directory)))
    .orderBy(asc(workflows.directoryId), asc(workflows.fileName));
  return { dirs, files };
}
