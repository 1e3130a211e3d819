import type { UploadedFile } from '@opsdeck/contract/accounts';
import { FORBIDDEN_NAME_CHARS, LIMITS } from '@opsdeck/contract/limits';
import { parseSort } from '@opsdeck/contract/paging';
import {
  type CreateDirectory,
  type DeleteCount,
  type DeleteDirectory,
  type DirectoryItem,
  type DirectoryPage,
  type DirectoryView,
  type ItemsOfDirectory,
  joinPath,
  pathSegments,
  type RenameDirectory,
  type RenamedItems,
  type RenameItems,
  ROOT_DIRECTORY,
  type SaveWorkflow,
  WORKFLOW_FILE_EXTENSION,
  type Workflow,
  type WorkflowDetail,
} from '@opsdeck/contract/workflows';
import { RaxError } from '@opsdeck/rax/format';
import { readRax } from '@opsdeck/rax/read';
import type { Db, Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { type AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import type { EventBus, Resource } from '../../platform/events';
import { inIdOrder } from '../../platform/search';
import { scopedTenant, scopeOf } from '../../platform/tenancy';
import { listWithLicenseType } from '../activities/queries';
import { byIds, byTenantIds, countCompanies, findCompany, pageCompanyIds, selectCompanies } from '../companies/queries';
import { completeNames } from '../users/queries';
import { type BlobStore, databaseBlobStore } from './blob-store';
import * as q from './queries';
import type { ZipEntry } from './zip';

/**
 * Where a path leads: the provider's root (the company folders), or a directory of one company's
 * tree. `prefix` is how the caller spells that tree's root ('Workflows', or 'Workflows/<company>'
 * for the provider); `companyFolder` marks a company's root seen from the provider's root.
 */
type Place =
  | { kind: 'providerRoot'; path: string }
  | {
      kind: 'directory';
      tenantId: string;
      directory: q.DirectoryRow;
      path: string;
      prefix: string[];
      companyFolder: boolean;
    };
type DirectoryPlace = Extract<Place, { kind: 'directory' }>;

/** A checked upload: its name as stored, its bytes and what its manifest says. */
export type CheckedFile = { fileName: string; bytes: Uint8Array; activityKeys: string[]; steps: number };

/** Stores a file as the workflow's next version: the blob (once per content) and the version row, in the caller's transaction. */
export async function storeVersion(
  tx: Executor,
  blobs: BlobStore,
  workflow: Pick<q.WorkflowRow, 'id' | 'tenantId'>,
  file: CheckedFile,
  by: { userId: number | null; now: number },
) {
  const blob = await blobs.put(tx, file.bytes);
  return q.insertVersion(tx, {
    workflowId: workflow.id,
    tenantId: workflow.tenantId,
    fileName: file.fileName,
    size: blob.size,
    sha256: blob.sha256,
    activityKeys: file.activityKeys,
    steps: file.steps,
    createdAt: by.now,
    createdBy: by.userId,
  });
}

const FILE_UNSUPPORTED = { file: 'ERROR_WORKFLOW_FILE_UNSUPPORTED' } as const;
const FILE_EXIST = { file: 'ERROR_WORKFLOW_FILE_EXIST' } as const;

const isProvider = (auth: RequestAuth) => auth.companyId === null;

const SORT_COLUMNS = {
  name: 'name',
  description: 'description',
  createDate: 'created_at',
  updateDate: 'updated_at',
  size: 'size',
} as const satisfies Record<string, q.ItemOrder['column']>;

function orderOf(sort: string | undefined): q.ItemOrder {
  const parsed = parseSort(sort);
  const column = parsed ? SORT_COLUMNS[parsed.field as keyof typeof SORT_COLUMNS] : undefined;
  return { column: column ?? 'name', descending: parsed?.direction === 'desc' };
}

/** The name a file is stored under: its last path segment (some browsers send more), trimmed. */
export function checkFileName(filename: string): string {
  const fileName = filename.split(/[\\/]/).pop()!.trim();
  const base = fileName.slice(0, -WORKFLOW_FILE_EXTENSION.length).trim();
  if (
    !fileName.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION) ||
    base.length === 0 ||
    fileName.length > LIMITS.nameMax ||
    FORBIDDEN_NAME_CHARS.test(fileName)
  ) {
    throw badRequest('ERROR_WORKFLOW_FILE_UNSUPPORTED', FILE_UNSUPPORTED);
  }
  return fileName;
}

export async function checkFile(file: UploadedFile): Promise<CheckedFile> {
  const fileName = checkFileName(file.filename);
  try {
    const contents = await readRax(file.bytes);
    return { fileName, bytes: file.bytes, activityKeys: contents.activityKeys, steps: contents.manifest.steps.length };
  } catch (error) {
    // Named .rax but not a workflow archive (not a zip, no or a broken manifest, unsafe, too big).
    if (error instanceof RaxError)
      throw badRequest('ERROR_WORKFLOW_FILE_INVALID', { file: 'ERROR_WORKFLOW_FILE_INVALID' });
    throw error;
  }
}

/** A workflow item's name after a rename: the base name given, with the .rax extension once. */
const workflowFileName = (base: string) =>
  base.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION) ? base : `${base}${WORKFLOW_FILE_EXTENSION}`;
const baseName = (fileName: string) =>
  fileName.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION)
    ? fileName.slice(0, -WORKFLOW_FILE_EXTENSION.length)
    : fileName;

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

export type WorkflowsServiceOptions = { db: Db; events?: EventBus; blobs?: BlobStore };

export function createWorkflowsService({ db, events, blobs = databaseBlobStore }: WorkflowsServiceOptions) {
  const publish = (
    resource: Resource,
    kind: 'created' | 'updated' | 'archived' | 'deleted',
    ids: number[],
    tenantId: string,
  ) => events?.publish({ resource, kind, ids, tenantId });

  /** Finds where a path leads for this caller; anything that is not there answers 404 ERROR_DIRECTORY_NOT_EXIST. */
  async function resolve(auth: RequestAuth, path: string, executor: Executor = db): Promise<Place> {
    const missing = notFound('ERROR_DIRECTORY_NOT_EXIST');
    const segments = pathSegments(path);
    if (segments[0]?.toLowerCase() !== ROOT_DIRECTORY.toLowerCase()) throw missing;
    let rest = segments.slice(1);
    let tenantId: string;
    let prefix: string[];
    if (isProvider(auth)) {
      if (rest.length === 0) return { kind: 'providerRoot', path: ROOT_DIRECTORY };
      const company = await findCompany(executor, { name: rest[0]! });
      if (!company) throw missing;
      // A tenant header, when sent, must name the company whose folder the path goes through.
      if (auth.tenantId !== null && auth.tenantId !== company.tenantId) throw forbidden('ERROR_TENANT_FORBIDDEN');
      tenantId = company.tenantId;
      prefix = [ROOT_DIRECTORY, company.name];
      rest = rest.slice(1);
    } else {
      tenantId = auth.tenantId!;
      prefix = [ROOT_DIRECTORY];
    }
    let directory = await q.ensureTreeRoot(executor, tenantId);
    const names = [...prefix];
    for (const name of rest) {
      const child = await q.findChildDirectory(executor, directory, name);
      if (!child) throw missing;
      directory = child;
      names.push(child.name);
    }
    return {
      kind: 'directory',
      tenantId,
      directory,
      path: joinPath(...names),
      prefix,
      companyFolder: isProvider(auth) && rest.length === 0,
    };
  }

  /** A directory the caller may write into: the provider's root holds only company folders. */
  async function resolveDirectory(auth: RequestAuth, path: string, field: string): Promise<DirectoryPlace> {
    const place = await resolve(auth, path);
    if (place.kind === 'providerRoot')
      throw badRequest('ERROR_COMPANY_REQUIRED', { [field]: 'ERROR_COMPANY_REQUIRED' });
    return place;
  }

  /** The paths of directories as the caller spells them ('Workflows/…' or 'Workflows/<company>/…'). */
  async function spellPaths(auth: RequestAuth, directoryIds: readonly number[], executor: Executor = db) {
    const paths = await q.idPaths(executor, directoryIds);
    const allIds = [...paths.values()].flatMap((row) => row.idPath.split('/').filter(Boolean).map(Number));
    const names = await q.directoryNames(executor, allIds);
    const tenants = [...new Set([...paths.values()].map((row) => row.tenantId))];
    const companies = new Map(
      isProvider(auth)
        ? (await selectCompanies(executor, byTenantIds(tenants))).map((company) => [company.tenantId, company.name])
        : [],
    );
    const spelt = new Map<number, string>();
    for (const [id, row] of paths) {
      const below = row.idPath
        .split('/')
        .filter(Boolean)
        .slice(1)
        .map((part) => names.get(Number(part)) ?? '');
      const prefix = isProvider(auth) ? [ROOT_DIRECTORY, companies.get(row.tenantId) ?? ''] : [ROOT_DIRECTORY];
      spelt.set(id, joinPath(...prefix, ...below));
    }
    return spelt;
  }

  async function toItems(auth: RequestAuth, rows: q.ItemRow[], parentPath?: string): Promise<DirectoryItem[]> {
    const catalogue = await activityCatalogue(db);
    const people = await completeNames(
      db,
      rows.flatMap((row) => [row.created_by, row.updated_by]),
    );
    const paths = parentPath ? null : await spellPaths(auth, [...new Set(rows.map((row) => row.directory_id))]);
    return rows.map((row) => {
      const isDirectory = row.kind === 0;
      return {
        type: isDirectory ? 'directory' : 'workflow',
        name: row.name,
        fileName: row.file_name,
        parent: parentPath ?? paths!.get(row.directory_id) ?? '',
        id: isDirectory ? null : row.id,
        description: row.description,
        size: row.size,
        premium: usesPremium(catalogue, row.activity_keys ?? []),
        createDate: Number(row.created_at),
        updateDate: Number(row.updated_at),
        creator: row.created_by === null ? '' : (people.get(row.created_by) ?? ''),
        updatedBy: row.updated_by === null ? '' : (people.get(row.updated_by) ?? ''),
        protected: false,
      };
    });
  }

  async function toWorkflow(
    auth: RequestAuth,
    row: q.WorkflowRow,
    executor: Executor = db,
    catalogue?: ActivityCatalogue,
  ): Promise<Workflow> {
    const activities = catalogue ?? (await activityCatalogue(executor));
    const people = await completeNames(executor, [row.createdBy, row.updatedBy]);
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

  /** A live workflow the caller may see, or 404 ERROR_WORKFLOW_NOT_EXIST. */
  async function fileOf(workflowId: number, versionId?: number) {
    const version = await q.findVersion(db, workflowId, versionId);
    const bytes = version && (await blobs.get(db, version.sha256));
    if (!version || !bytes) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
    return { fileName: version.fileName, bytes };
  }

  async function visibleWorkflow(auth: RequestAuth, id: number, executor: Executor = db, lock = false) {
    const row = await q.findWorkflow(executor, id, scopedTenant(scopeOf(auth)), lock);
    if (!row) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
    return row;
  }

  /** Runs a write; a unique-index race on a file or directory name answers as the check before it would. */
  async function write<T>(work: (tx: Executor) => Promise<T>, nameClash: AppError): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (hasSqlState(error, SQLSTATE.uniqueViolation)) throw nameClash;
      throw error;
    }
  }

  /** Locks the directory a write goes into; one removed meanwhile answers 404. */
  async function lockPlace(tx: Executor, place: DirectoryPlace) {
    const locked = await q.lockDirectory(tx, place.directory.id);
    if (!locked) throw notFound('ERROR_DIRECTORY_NOT_EXIST');
    return locked;
  }

  /** The items of a directory named as its listing names them; a name that is not there answers 404. */
  async function resolveItems(auth: RequestAuth, place: Place, names: readonly string[], executor: Executor = db) {
    const items: ({ kind: 'directory'; place: DirectoryPlace } | { kind: 'workflow'; row: q.WorkflowRow })[] = [];
    for (const name of new Set(names)) {
      if (place.kind === 'directory') {
        const row = await q.findLiveWorkflowByFile(executor, place.directory.id, name);
        if (row) {
          items.push({ kind: 'workflow', row });
          continue;
        }
      }
      const child = await resolve(auth, joinPath(place.path, name), executor);
      if (child.kind !== 'directory') throw notFound('ERROR_DIRECTORY_NOT_EXIST');
      items.push({ kind: 'directory', place: child });
    }
    return items;
  }

  function refuseCompanyFolders(items: Awaited<ReturnType<typeof resolveItems>>) {
    if (items.some((item) => item.kind === 'directory' && item.place.companyFolder)) {
      throw forbidden('ERROR_DIRECTORY_PROTECTED');
    }
  }

  /** The entries of a zip of these items: directories with everything below them, workflows' current files. */
  async function* zipEntries(items: Awaited<ReturnType<typeof resolveItems>>): AsyncGenerator<ZipEntry> {
    const fileOf = (workflowId: number) => async () => {
      const version = await q.findVersion(db, workflowId);
      const bytes = version ? await blobs.get(db, version.sha256) : undefined;
      if (!bytes) throw new Error(`workflow ${workflowId} has no stored file`);
      return bytes;
    };
    for (const item of items) {
      if (item.kind === 'workflow') {
        yield { path: item.row.fileName, read: fileOf(item.row.id) };
        continue;
      }
      const { dirs, files } = await q.subtreeContents(db, item.place.directory);
      const top = item.place.directory;
      const relative = new Map<number, string>([[top.id, item.place.path.split('/').pop()!]]);
      for (const dir of dirs) {
        if (dir.id !== top.id) relative.set(dir.id, `${relative.get(dir.parentId!)}/${dir.name}`);
        yield { path: `${relative.get(dir.id)}/` };
      }
      for (const file of files) {
        yield { path: `${relative.get(file.directoryId!)}/${file.fileName}`, read: fileOf(file.id) };
      }
    }
  }

  return {
    resolve,

    root: () => ({ name: ROOT_DIRECTORY }) as const,

    /**
     * One page of a directory (directories first), or of the workflows below it matching a search.
     * `workflowsOnly`: POST /api/workflow/view, which lists no directories.
     */
    async view(auth: RequestAuth, query: DirectoryView, workflowsOnly = false): Promise<DirectoryPage> {
      const place = await resolve(auth, query.parent);
      const order = orderOf(query.sort);
      const paging = { offset: (query.page - 1) * query.size, limit: query.size, order };
      const searching = Boolean(query.search) || query.from !== undefined || query.to !== undefined;
      const tenantId = place.kind === 'directory' ? place.tenantId : null;
      const pageOf = (items: DirectoryItem[], total: number): DirectoryPage => ({
        items,
        total,
        page: query.page,
        size: query.size,
        path: place.path,
        tenantId,
      });
      if (searching || workflowsOnly) {
        const search = { text: query.search, from: query.from, to: query.to };
        const directory = place.kind === 'directory' ? place.directory : null;
        // Without a search, /workflow/view lists the directory's own workflows only.
        const { rows, total } =
          directory === null && !searching
            ? { rows: [], total: 0 }
            : await q.searchWorkflows(db, { directory, deep: searching }, search, paging);
        return pageOf(await toItems(auth, rows), total);
      }
      if (place.kind === 'providerRoot') {
        const direction = order.column === 'name' && order.descending ? 'desc' : 'asc';
        const ids = await pageCompanyIds(db, undefined, { field: 'name', direction }, paging.limit, paging.offset);
        const rows = inIdOrder(ids, await selectCompanies(db, byIds(ids)));
        const total = await countCompanies(db, undefined);
        // A company's folder is its tree's root: when it was made and last changed, and by whom.
        const roots = await q.treeRoots(
          db,
          rows.flatMap((company) => company.tenantId ?? []),
        );
        const people = await completeNames(
          db,
          [...roots.values()].flatMap((root) => [root.createdBy, root.updatedBy]),
        );
        const nameOf = (id: number | null | undefined) => (id == null ? '' : (people.get(id) ?? ''));
        const items: DirectoryItem[] = rows.map((company) => {
          const root = company.tenantId ? roots.get(company.tenantId) : undefined;
          return {
            type: 'directory',
            name: company.name,
            fileName: company.name,
            parent: ROOT_DIRECTORY,
            id: null,
            description: '',
            size: null,
            premium: false,
            createDate: root?.createdAt ?? company.createdAt,
            updateDate: root?.updatedAt ?? company.createdAt,
            creator: nameOf(root?.createdBy),
            updatedBy: nameOf(root?.updatedBy),
            protected: true,
          };
        });
        return pageOf(items, total);
      }
      const { rows, total } = await q.directoryItems(db, place.directory, paging);
      return pageOf(await toItems(auth, rows, place.path), total);
    },

    async get(auth: RequestAuth, id: number): Promise<WorkflowDetail> {
      const row = await visibleWorkflow(auth, id);
      const versions = await q.listVersions(db, id);
      const catalogue = await activityCatalogue(db);
      const uploaders = await completeNames(
        db,
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
        async (tx) => {
          const directory = await lockPlace(tx, place);
          const current = await visibleWorkflow(auth, id, tx, true);
          const fileName = file?.fileName ?? current.fileName;
          const sameName =
            directory.id === current.directoryId && fileName.toLowerCase() === current.fileName.toLowerCase();
          if (!sameName && (await q.nameTaken(tx, directory, fileName))) {
            throw conflict('ERROR_WORKFLOW_FILE_EXIST', FILE_EXIST);
          }
          const changes: Parameters<typeof q.updateWorkflow>[2] = {
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
          return q.updateWorkflow(tx, id, changes);
        },
        conflict('ERROR_WORKFLOW_FILE_EXIST', FILE_EXIST),
      );
      publish('workflows', 'updated', [row.id], row.tenantId);
      return toWorkflow(auth, row);
    },

    /** Archives a workflow; `directory` must be the one it is in. */
    async archive(auth: RequestAuth, id: number, directoryPath: string) {
      const row = await visibleWorkflow(auth, id);
      const place = await resolve(auth, directoryPath).catch(() => null);
      if (place?.kind !== 'directory' || place.directory.id !== row.directoryId)
        throw notFound('ERROR_WORKFLOW_NOT_EXIST');
      await q.updateWorkflow(db, id, { archived: true, updatedAt: Date.now(), updatedBy: auth.userId });
      publish('workflows', 'archived', [id], row.tenantId);
      return { ok: true } as const;
    },

    /** A workflow's current file, or an earlier version; `rename` names it after the workflow. */
    async download(auth: RequestAuth, id: number, options: { rename: boolean; version?: number }) {
      const row = await visibleWorkflow(auth, id);
      const { fileName, bytes } = await fileOf(id, options.version);
      return { fileName: options.rename ? workflowFileName(row.name) : fileName, bytes };
    },

    /** The current file of a live workflow of the tenant (an agent's download, LIVE.md). */
    async currentFile(tenantId: string, id: number) {
      if (!(await q.findWorkflow(db, id, tenantId))) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
      return fileOf(id);
    },

    async createDirectory(auth: RequestAuth, body: CreateDirectory): Promise<DirectoryItem> {
      const place = await resolveDirectory(auth, body.parent, 'parent');
      const now = Date.now();
      const clash = conflict('ERROR_DIRECTORY_NAME_EXIST', { name: 'ERROR_DIRECTORY_NAME_EXIST' });
      const row = await write(async (tx) => {
        const parent = await lockPlace(tx, place);
        if (await q.nameTaken(tx, parent, body.name)) throw clash;
        return q.insertDirectory(tx, parent, { name: body.name, userId: auth.userId, now });
      }, clash);
      publish('directories', 'created', [row.id], row.tenantId);
      const [item] = await toItems(
        auth,
        [
          {
            kind: 0,
            id: row.id,
            name: row.name,
            file_name: row.name,
            description: '',
            size: null,
            activity_keys: null,
            directory_id: place.directory.id,
            created_at: row.createdAt,
            updated_at: row.updatedAt,
            created_by: row.createdBy,
            updated_by: row.updatedBy,
          },
        ],
        place.path,
      );
      return item!;
    },

    /** Renames a directory; its unchanged name changes nothing. */
    async renameDirectory(auth: RequestAuth, body: RenameDirectory) {
      const parent = await resolve(auth, body.parent);
      const [item] = await resolveItems(auth, parent, [body.current]);
      if (item?.kind !== 'directory') throw notFound('ERROR_DIRECTORY_NOT_EXIST');
      refuseCompanyFolders([item]);
      const directory = item.place.directory;
      if (body.new === directory.name) return { ok: true } as const;
      const clash = conflict('ERROR_DIRECTORY_NAME_EXIST', { new: 'ERROR_DIRECTORY_NAME_EXIST' });
      await write(async (tx) => {
        const locked = await q.lockDirectory(tx, directory.parentId!);
        if (!locked) throw notFound('ERROR_DIRECTORY_NOT_EXIST');
        const caseOnly = body.new.toLowerCase() === directory.name.toLowerCase();
        if (!caseOnly && (await q.nameTaken(tx, locked, body.new))) throw clash;
        await q.renameDirectory(tx, directory.id, body.new, auth.userId, Date.now());
      }, clash);
      publish('directories', 'updated', [directory.id], directory.tenantId);
      return { ok: true } as const;
    },

    /**
     * Renames several items after one name (docs/workflows.md): the first takes the name, the
     * next 'name (2)', 'name (3)' …, each skipping names the directory already holds; workflows
     * keep their .rax extension and take the base name as their name.
     */
    async renameItems(auth: RequestAuth, body: RenameItems): Promise<RenamedItems> {
      const place = await resolve(auth, body.directory);
      const items = await resolveItems(auth, place, body.files);
      refuseCompanyFolders(items);
      if (place.kind !== 'directory') throw forbidden('ERROR_DIRECTORY_PROTECTED');
      const clash = conflict('ERROR_DIRECTORY_NAME_EXIST', { newFileName: 'ERROR_DIRECTORY_NAME_EXIST' });
      const now = Date.now();
      const renamed = await write(async (tx) => {
        const directory = await lockPlace(tx, place);
        const moving = new Set(
          items.map((item) => (item.kind === 'workflow' ? item.row.fileName : item.place.directory.name).toLowerCase()),
        );
        const taken = new Set([...(await q.takenNames(tx, directory))].filter((name) => !moving.has(name)));
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
          if (item.kind === 'workflow') await q.updateWorkflow(tx, item.row.id, { fileName: parked });
          else await q.renameDirectory(tx, item.place.directory.id, parked, auth.userId, now);
        }
        for (const { item, to } of plan) {
          if (item.kind === 'workflow') {
            await q.updateWorkflow(tx, item.row.id, {
              fileName: to,
              name: baseName(to),
              updatedAt: now,
              updatedBy: auth.userId,
            });
          } else {
            await q.renameDirectory(tx, item.place.directory.id, to, auth.userId, now);
          }
        }
        return plan.map(({ from, to }) => ({ from, to }));
      }, clash);
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
      const place = await resolve(auth, body.directory);
      const items = await resolveItems(auth, place, body.files);
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

    /** Deletes directories (archiving every workflow below) and archives workflows, in one transaction. */
    async deleteItems(auth: RequestAuth, body: ItemsOfDirectory): Promise<DeleteCount> {
      const place = await resolve(auth, body.directory);
      const items = await resolveItems(auth, place, body.files);
      refuseCompanyFolders(items);
      if (place.kind !== 'directory') throw forbidden('ERROR_DIRECTORY_PROTECTED');
      const now = Date.now();
      const result = await db.transaction(async (tx) => {
        await lockPlace(tx, place);
        const count = { directories: 0, workflows: 0, workflowIds: [] as number[], directoryIds: [] as number[] };
        for (const item of items) {
          if (item.kind === 'workflow') {
            await q.updateWorkflow(tx, item.row.id, { archived: true, updatedAt: now, updatedBy: auth.userId });
            count.workflows += 1;
            count.workflowIds.push(item.row.id);
          } else {
            const removed = await q.removeSubtree(tx, item.place.directory, auth.userId, now);
            count.directories += removed.directories;
            count.workflows += removed.workflows;
            count.workflowIds.push(...removed.workflowIds);
            count.directoryIds.push(item.place.directory.id);
          }
        }
        return count;
      });
      if (result.workflowIds.length > 0) publish('workflows', 'archived', result.workflowIds, place.tenantId);
      if (result.directoryIds.length > 0) publish('directories', 'deleted', result.directoryIds, place.tenantId);
      return { directories: result.directories, workflows: result.workflows };
    },

    deleteDirectory(auth: RequestAuth, body: DeleteDirectory) {
      return this.deleteItems(auth, { files: [body.name], directory: body.parent });
    },

    /** A zip of one directory, named after it. */
    async downloadDirectory(auth: RequestAuth, query: { name: string; parent: string }) {
      const parent = await resolve(auth, query.parent);
      const items = await resolveItems(auth, parent, [query.name]);
      if (items[0]?.kind !== 'directory') throw notFound('ERROR_DIRECTORY_NOT_EXIST');
      return { fileName: `${items[0].place.path.split('/').pop()}.zip`, entries: zipEntries(items) };
    },

    /** One zip of several items of a directory, named after the directory. */
    async downloadItems(auth: RequestAuth, query: { directory: string; fileNames: string[] }) {
      const place = await resolve(auth, query.directory);
      const items = await resolveItems(auth, place, query.fileNames);
      return { fileName: `${place.path.split('/').pop()}.zip`, entries: zipEntries(items) };
    },
  };
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
