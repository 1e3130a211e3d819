import { LIMITS } from '@opsdeck/contract/limits';
import type {
  CreateDirectory,
  DeleteCount,
  DeleteDirectory,
  DirectoryItem,
  ItemsOfDirectory,
  RenameDirectory,
  RenamedItems,
  RenameItems,
} from '@opsdeck/contract/workflows';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import type { Resource } from '../../platform/events';
import { oneTenant } from '../../platform/tenancy';
import { completeNames } from '../users/queries';
import type { WebhookOutbox } from '../webhooks/service';
import { baseName, workflowFileName } from './files';
import { type Places, refuseCompanyFolders } from './places';
import * as q from './queries';
import { directoryItem } from './view';
import { lockPlace, write } from './writes';

export type Publish = (
  resource: Resource,
  kind: 'created' | 'updated' | 'archived' | 'deleted',
  ids: number[],
  tenantId: string,
) => void;

/**
 * The tree's directories and the items of a directory (docs/workflows.md): a directory made,
 * renamed, deleted with everything below it; several items renamed after one name; what a delete
 * would take.
 */
type ArchivedWorkflow = Pick<q.WorkflowRow, 'id' | 'name' | 'fileName'>;

export function createTree({
  db,
  places,
  publish,
  outbox,
}: {
  db: Db;
  places: Places;
  publish: Publish;
  outbox: WebhookOutbox;
}) {
  /**
   * Deletes directories (archiving every workflow below) and archives workflows, in one
   * transaction; every workflow that went is told as `workflow.deleted` (docs/webhooks.md).
   */
  async function deleteItems(auth: RequestAuth, body: ItemsOfDirectory): Promise<DeleteCount> {
    const place = await places.resolve(auth, body.directory);
    const items = await places.resolveItems(auth, place, body.files);
    refuseCompanyFolders(items);
    if (place.kind !== 'directory') throw forbidden('ERROR_DIRECTORY_PROTECTED');
    const now = Date.now();
    const result = await db.transaction(async (tx) => {
      await lockPlace(tx, place);
      const gone = { directories: 0, workflows: [] as ArchivedWorkflow[], directoryIds: [] as number[] };
      for (const item of items) {
        if (item.kind === 'workflow') {
          await q.updateWorkflow(tx, oneTenant(place.tenantId), item.row.id, {
            archived: true,
            updatedAt: now,
            updatedBy: auth.userId,
          });
          gone.workflows.push(item.row);
        } else {
          const removed = await q.removeSubtree(tx, item.place.directory, auth.userId, now);
          gone.directories += removed.directories;
          gone.workflows.push(...removed.workflows);
          gone.directoryIds.push(item.place.directory.id);
        }
      }
      // In the change's transaction: the events exist exactly when the workflows went.
      await outbox.emitAll(
        gone.workflows.map(({ id, name, fileName }) => ({
          type: 'workflow.deleted',
          tenantId: place.tenantId,
          data: { workflow: { id, name, fileName } },
        })),
      );
      return gone;
    });
    const workflowIds = result.workflows.map((workflow) => workflow.id);
    if (workflowIds.length > 0) publish('workflows', 'archived', workflowIds, place.tenantId);
    if (result.directoryIds.length > 0) publish('directories', 'deleted', result.directoryIds, place.tenantId);
    return { directories: result.directories, workflows: result.workflows.length };
  }

  return {
    deleteItems,

    deleteDirectory(auth: RequestAuth, body: DeleteDirectory) {
      return deleteItems(auth, { files: [body.name], directory: body.parent });
    },

    async createDirectory(auth: RequestAuth, body: CreateDirectory): Promise<DirectoryItem> {
      const place = await places.resolveDirectory(auth, body.parent, 'parent');
      const now = Date.now();
      const clash = conflict('ERROR_DIRECTORY_NAME_EXIST', { name: 'ERROR_DIRECTORY_NAME_EXIST' });
      const row = await write(
        db,
        async (tx) => {
          const parent = await lockPlace(tx, place);
          if (await q.nameTaken(tx, parent, body.name)) throw clash;
          return q.insertDirectory(tx, parent, { name: body.name, userId: auth.userId, now });
        },
        clash,
      );
      publish('directories', 'created', [row.id], row.tenantId);
      const people = await completeNames(db, oneTenant(row.tenantId), [row.createdBy]);
      const by = row.createdBy === null ? '' : (people.get(row.createdBy) ?? '');
      return directoryItem(
        {
          kind: 0,
          id: row.id,
          name: row.name,
          file_name: row.name,
          description: '',
          size: null,
          premium: false,
          directory_id: place.directory.id,
          created_at: row.createdAt,
          updated_at: row.updatedAt,
          creator: by,
          updater: by,
        },
        place.path,
      );
    },

    /** Renames a directory; its unchanged name changes nothing. */
    async renameDirectory(auth: RequestAuth, body: RenameDirectory) {
      const parent = await places.resolve(auth, body.parent);
      const [item] = await places.resolveItems(auth, parent, [body.current]);
      if (item?.kind !== 'directory') throw notFound('ERROR_DIRECTORY_NOT_EXIST');
      refuseCompanyFolders([item]);
      const directory = item.place.directory;
      if (body.new === directory.name) return { ok: true } as const;
      const clash = conflict('ERROR_DIRECTORY_NAME_EXIST', { new: 'ERROR_DIRECTORY_NAME_EXIST' });
      await write(
        db,
        async (tx) => {
          const scope = oneTenant(directory.tenantId);
          const locked = await q.lockDirectory(tx, scope, directory.parentId!);
          if (!locked) throw notFound('ERROR_DIRECTORY_NOT_EXIST');
          const caseOnly = body.new.toLowerCase() === directory.name.toLowerCase();
          if (!caseOnly && (await q.nameTaken(tx, locked, body.new))) throw clash;
          await q.renameDirectory(tx, scope, directory.id, body.new, auth.userId, Date.now());
        },
        clash,
      );
      publish('directories', 'updated', [directory.id], directory.tenantId);
      return { ok: true } as const;
    },

    /**
     * Renames several items after one name (docs/workflows.md): the first takes the name, the
     * next 'name (2)', 'name (3)' …, each skipping names the directory already holds; workflows
     * keep their .rax extension and take the base name as their name.
     */
    async renameItems(auth: RequestAuth, body: RenameItems): Promise<RenamedItems> {
      const place = await places.resolve(auth, body.directory);
      const items = await places.resolveItems(auth, place, body.files);
      refuseCompanyFolders(items);
      if (place.kind !== 'directory') throw forbidden('ERROR_DIRECTORY_PROTECTED');
      const clash = conflict('ERROR_DIRECTORY_NAME_EXIST', { newFileName: 'ERROR_DIRECTORY_NAME_EXIST' });
      const now = Date.now();
      const renamed = await write(
        db,
        async (tx) => {
          const directory = await lockPlace(tx, place);
          const moving = new Set(
            items.map((item) =>
              (item.kind === 'workflow' ? item.row.fileName : item.place.directory.name).toLowerCase(),
            ),
          );
          const taken = new Set([...(await q.takenNames(tx, directory))].filter((name) => !moving.has(name)));
          const scope = oneTenant(place.tenantId);
          const plan: { item: (typeof items)[number]; from: string; to: string }[] = [];
          let counter = 1;
          for (const item of items) {
            let to: string;
            do {
              const base = counter === 1 ? body.newFileName : `${body.newFileName} (${counter})`;
              to = item.kind === 'workflow' ? workflowFileName(base) : base;
              counter += 1;
            } while (taken.has(to.toLowerCase()));
            if (to.length > LIMITS.nameMax)
              throw badRequest('ERROR_DIRECTORY_NAME_TOO_LONG', { newFileName: 'ERROR_DIRECTORY_NAME_TOO_LONG' });
            taken.add(to.toLowerCase());
            plan.push({ item, from: item.kind === 'workflow' ? item.row.fileName : item.place.directory.name, to });
          }
          // Two steps, so that items trading names never meet the unique indexes halfway.
          for (const [index, { item }] of plan.entries()) {
            const parked = `*renaming*${index}`;
            if (item.kind === 'workflow') await q.updateWorkflow(tx, scope, item.row.id, { fileName: parked });
            else await q.renameDirectory(tx, scope, item.place.directory.id, parked, auth.userId, now);
          }
          for (const { item, to } of plan) {
            if (item.kind === 'workflow') {
              await q.updateWorkflow(tx, scope, item.row.id, {
                fileName: to,
                name: baseName(to),
                updatedAt: now,
                updatedBy: auth.userId,
              });
            } else {
              await q.renameDirectory(tx, scope, item.place.directory.id, to, auth.userId, now);
            }
          }
          return plan.map(({ from, to }) => ({ from, to }));
        },
        clash,
      );
      publish(
        'workflows',
        'updated',
        items.flatMap((item) => (item.kind === 'workflow' ? [item.row.id] : [])),
        place.tenantId,
      );
      return { renamed };
    },

    /** What deleting these items takes: directories removed and workflows archived, everything below included. */
    async deletePreview(auth: RequestAuth, body: ItemsOfDirectory): Promise<DeleteCount> {
      const place = await places.resolve(auth, body.directory);
      const items = await places.resolveItems(auth, place, body.files);
      const count = { directories: 0, workflows: 0 };
      for (const item of items) {
        if (item.kind === 'workflow') count.workflows += 1;
        else {
          const below = await q.countSubtree(db, item.place.directory);
          count.directories += below.directories;
          count.workflows += below.workflows;
        }
      }
      return count;
    },
  };
}
