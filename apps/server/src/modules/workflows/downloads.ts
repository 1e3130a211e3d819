import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { notFound } from '../../platform/errors';
import { oneTenant, type TenantScope } from '../../platform/tenancy';
import type { BlobStore } from './blob-store';
import { workflowFileName } from './files';
import type { Places, ResolvedItem } from './places';
import * as q from './queries';
import type { ZipEntry } from './zip';

/**
 * What the Workflows page downloads (docs/workflows.md): a workflow's file or an earlier version,
 * and zips of directories and items, streamed entry by entry (zip.ts) so that a large directory is
 * never held whole in memory.
 */
export function createDownloads({ db, blobs, places }: { db: Db; blobs: BlobStore; places: Places }) {
  /** A version's file (the current one unless said); 404 ERROR_WORKFLOW_NOT_EXIST if it has none. */
  async function fileOf(scope: TenantScope, workflowId: number, versionId?: number) {
    const version = await q.findVersion(db, scope, workflowId, versionId);
    const bytes = version && (await blobs.get(db, version.sha256));
    if (!version || !bytes) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
    return { fileName: version.fileName, bytes };
  }

  /** The entries of a zip of these items: directories with everything below them, workflows' current files. */
  async function* zipEntries(items: readonly ResolvedItem[]): AsyncGenerator<ZipEntry> {
    const read = (scope: TenantScope, workflowId: number) => async () => {
      const version = await q.findVersion(db, scope, workflowId);
      const bytes = version ? await blobs.get(db, version.sha256) : undefined;
      if (!bytes) throw new Error(`workflow ${workflowId} has no stored file`);
      return bytes;
    };
    for (const item of items) {
      if (item.kind === 'workflow') {
        yield { path: item.row.fileName, read: read(oneTenant(item.row.tenantId), item.row.id) };
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
        yield {
          path: `${relative.get(file.directoryId!)}/${file.fileName}`,
          read: read(oneTenant(item.place.tenantId), file.id),
        };
      }
    }
  }

  return {
    /** A workflow's current file, or an earlier version; `rename` names it after the workflow. */
    async download(auth: RequestAuth, id: number, options: { rename: boolean; version?: number }) {
      const row = await places.visibleWorkflow(auth, id);
      const { fileName, bytes } = await fileOf(oneTenant(row.tenantId), id, options.version);
      return { fileName: options.rename ? workflowFileName(row.name) : fileName, bytes };
    },

    /** The current file of a live workflow of the tenant (an agent's download, docs/live-channel.md). */
    async currentFile(tenantId: string, id: number) {
      if (!(await q.findWorkflow(db, oneTenant(tenantId), id))) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
      return fileOf(oneTenant(tenantId), id);
    },

    /** A zip of one directory, named after it. */
    async downloadDirectory(auth: RequestAuth, query: { name: string; parent: string }) {
      const parent = await places.resolve(auth, query.parent);
      const items = await places.resolveItems(auth, parent, [query.name]);
      if (items[0]?.kind !== 'directory') throw notFound('ERROR_DIRECTORY_NOT_EXIST');
      return { fileName: `${items[0].place.path.split('/').pop()}.zip`, entries: zipEntries(items) };
    },

    /** One zip of several items of a directory, named after the directory. */
    async downloadItems(auth: RequestAuth, query: { directory: string; fileNames: string[] }) {
      const place = await places.resolve(auth, query.directory);
      const items = await places.resolveItems(auth, place, query.fileNames);
      return { fileName: `${place.path.split('/').pop()}.zip`, entries: zipEntries(items) };
    },
  };
}
