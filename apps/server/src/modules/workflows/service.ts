import { ROOT_DIRECTORY, type SaveWorkflow, type Workflow, type WorkflowDetail } from '@opsdeck/contract/workflows';
import type { Db, Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { oneTenant } from '../../platform/tenancy';
import { listWithLicenseType } from '../activities/queries';
import { completeNames } from '../users/queries';
import type { WebhookOutbox } from '../webhooks/service';
import { type BlobStore, databaseBlobStore } from './blob-store';
import { createDownloads } from './downloads';
import { checkFile, FILE_EXIST, storeVersion } from './files';
import { createPlaces } from './places';
import * as q from './queries';
import { createTree, type Publish } from './tree';
import { createView } from './view';
import { lockPlace, write } from './writes';

/**
 * The Workflows area (docs/workflows.md). This file holds the workflows themselves (read, made,
 * changed, archived) and puts the area together; the rest is where a reader would look for it:
 * places.ts (paths to directories and items, within what the caller may see), view.ts and
 * listing.ts (the table's pages and search), tree.ts (directories made, renamed, deleted; items
 * renamed), files.ts (uploads and versions), downloads.ts (files and zips), writes.ts (how a write
 * locks its directory).
 */

/** The activity catalogue by lower-cased key: each activity's name, and whether 'pro' unlocks it (premium). */
type ActivityCatalogue = Map<string, { name: string; premium: boolean }>;

async function activityCatalogue(db: Executor): Promise<ActivityCatalogue> {
  const rows = await listWithLicenseType(db, 'pro');
  return new Map(
    rows.map(({ activity, unlocked }) => [activity.key.toLowerCase(), { name: activity.name, premium: unlocked }]),
  );
}

/** A workflow is premium when one of its steps uses a premium activity. */
const usesPremium = (catalogue: ActivityCatalogue, keys: readonly string[]) =>
  keys.some((key) => catalogue.get(key.toLowerCase())?.premium === true);

export type WorkflowsServiceOptions = { db: Db; events?: EventBus; outbox: WebhookOutbox; blobs?: BlobStore };

export function createWorkflowsService({ db, events, outbox, blobs = databaseBlobStore }: WorkflowsServiceOptions) {
  const publish: Publish = (resource, kind, ids, tenantId) => events?.publish({ resource, kind, ids, tenantId });
  const places = createPlaces(db);
  const { resolve, resolveDirectory, spellPaths, visibleWorkflow } = places;

  async function toWorkflow(
    auth: RequestAuth,
    row: q.WorkflowRow,
    executor: Executor = db,
    catalogue?: ActivityCatalogue,
  ): Promise<Workflow> {
    const activities = catalogue ?? (await activityCatalogue(executor));
    const people = await completeNames(executor, oneTenant(row.tenantId), [row.createdBy, row.updatedBy]);
    const paths = row.directoryId === null ? new Map() : await spellPaths(auth, [row.directoryId], executor);
    const person = (id: number | null) => ({ id, completeName: id === null ? '' : (people.get(id) ?? '') });
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      directory: row.directoryId === null ? '' : (paths.get(row.directoryId) ?? ''),
      file: row.fileName,
      originalFilename: row.fileName,
      size: row.size,
      premium: usesPremium(activities, row.activityKeys),
      createDate: row.createdAt,
      updateDate: row.updatedAt,
      creator: person(row.createdBy),
      updatedBy: person(row.updatedBy),
      tenantId: row.tenantId,
    };
  }

  return {
    resolve,

    root: () => ({ name: ROOT_DIRECTORY }) as const,

    ...createView({ db, events, places }),
    ...createTree({ db, places, publish, outbox }),
    ...createDownloads({ db, blobs, places }),

    async get(auth: RequestAuth, id: number): Promise<WorkflowDetail> {
      const row = await visibleWorkflow(auth, id);
      const versions = await q.listVersions(db, oneTenant(row.tenantId), id);
      const catalogue = await activityCatalogue(db);
      const uploaders = await completeNames(
        db,
        oneTenant(row.tenantId),
        versions.map((version) => version.createdBy),
      );
      return {
        ...(await toWorkflow(auth, row, db, catalogue)),
        steps: versions[0]?.steps ?? 0,
        activities: row.activityKeys.map((key) => {
          const activity = catalogue.get(key.toLowerCase());
          return { key, name: activity?.name ?? null, premium: activity?.premium ?? false };
        }),
        versions: versions.map((version) => ({
          id: version.id,
          number: version.number,
          fileName: version.fileName,
          size: version.size,
          sha256: version.sha256,
          createDate: version.createdAt,
          createdBy: {
            id: version.createdBy,
            completeName: version.createdBy === null ? '' : (uploaders.get(version.createdBy) ?? ''),
          },
        })),
      };
    },

    async create(auth: RequestAuth, body: SaveWorkflow): Promise<Workflow> {
      if (!body.file) throw badRequest('ERROR_WORKFLOW_FILE_REQUIRED', { file: 'ERROR_WORKFLOW_FILE_REQUIRED' });
      const file = await checkFile(body.file);
      const place = await resolveDirectory(auth, body.directory, 'directory');
      const now = Date.now();
      const row = await write(
        db,
        async (tx) => {
          const directory = await lockPlace(tx, place);
          if (await q.nameTaken(tx, directory, file.fileName)) throw conflict('ERROR_WORKFLOW_FILE_EXIST', FILE_EXIST);
          const workflow = await q.insertWorkflow(tx, {
            tenantId: place.tenantId,
            directoryId: directory.id,
            name: body.name,
            description: body.description,
            fileName: file.fileName,
            size: file.bytes.byteLength,
            activityKeys: file.activityKeys,
            createdAt: now,
            createdBy: auth.userId,
            updatedAt: now,
            updatedBy: auth.userId,
          });
          await storeVersion(tx, blobs, workflow, file, { userId: auth.userId, now });
          return workflow;
        },
        conflict('ERROR_WORKFLOW_FILE_EXIST', FILE_EXIST),
      );
      publish('workflows', 'created', [row.id], row.tenantId);
      await outbox.emit('workflow.uploaded', row.tenantId, {
        workflow: { id: row.id, name: row.name, fileName: row.fileName },
      });
      return toWorkflow(auth, row);
    },

    /** The same form as create; a new file is optional and makes a new version. A new directory moves it. */
    async update(auth: RequestAuth, id: number, body: SaveWorkflow): Promise<Workflow> {
      const existing = await visibleWorkflow(auth, id);
      const file = body.file ? await checkFile(body.file) : undefined;
      const place = await resolveDirectory(auth, body.directory, 'directory');
      if (place.tenantId !== existing.tenantId) throw notFound('ERROR_DIRECTORY_NOT_EXIST');
      const now = Date.now();
      const row = await write(
        db,
        async (tx) => {
          const directory = await lockPlace(tx, place);
          const current = await visibleWorkflow(auth, id, tx, true);
          const fileName = file?.fileName ?? current.fileName;
          const sameName =
            directory.id === current.directoryId && fileName.toLowerCase() === current.fileName.toLowerCase();
          if (!sameName && (await q.nameTaken(tx, directory, fileName))) {
            throw conflict('ERROR_WORKFLOW_FILE_EXIST', FILE_EXIST);
          }
          const changes: Parameters<typeof q.updateWorkflow>[3] = {
            name: body.name,
            description: body.description,
            directoryId: directory.id,
            fileName,
            updatedAt: now,
            updatedBy: auth.userId,
          };
          if (file) {
            await storeVersion(tx, blobs, current, file, { userId: auth.userId, now });
            Object.assign(changes, { size: file.bytes.byteLength, activityKeys: file.activityKeys });
          }
          return q.updateWorkflow(tx, oneTenant(current.tenantId), id, changes);
        },
        conflict('ERROR_WORKFLOW_FILE_EXIST', FILE_EXIST),
      );
      publish('workflows', 'updated', [row.id], row.tenantId);
      return toWorkflow(auth, row);
    },

    /** Archives a workflow; `directory` must be the one it is in. */
    async archive(auth: RequestAuth, id: number, directoryPath: string) {
      const row = await visibleWorkflow(auth, id);
      // A path that leads nowhere the caller may see (404, 403) means the workflow is not there;
      // any other failure (the database away: 503) is told as what it is.
      const place = await resolve(auth, directoryPath).catch((error: unknown) => {
        if (error instanceof AppError && error.statusCode < 500) return null;
        throw error;
      });
      if (place?.kind !== 'directory' || place.directory.id !== row.directoryId)
        throw notFound('ERROR_WORKFLOW_NOT_EXIST');
      await q.updateWorkflow(db, oneTenant(row.tenantId), id, {
        archived: true,
        updatedAt: Date.now(),
        updatedBy: auth.userId,
      });
      publish('workflows', 'archived', [id], row.tenantId);
      await outbox.emit('workflow.deleted', row.tenantId, {
        workflow: { id, name: row.name, fileName: row.fileName },
      });
      return { ok: true } as const;
    },
  };
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
