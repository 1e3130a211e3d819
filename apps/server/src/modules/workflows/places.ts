import { joinPath, pathSegments, ROOT_DIRECTORY } from '@opsdeck/contract/workflows';
import type { Db, Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { EVERY_TENANT, oneTenant, scopeOf } from '../../platform/tenancy';
import { byTenantIds, findCompany, selectCompanies } from '../companies/queries';
import * as q from './queries';

/**
 * Where a path leads: the provider's root (the company folders), or a directory of one company's
 * tree. `prefix` is how the caller spells that tree's root ('Workflows', or 'Workflows/<company>'
 * for the provider); `companyFolder` marks a company's root seen from the provider's root.
 */
export type Place =
  | { kind: 'providerRoot'; path: string }
  | {
      kind: 'directory';
      tenantId: string;
      directory: q.DirectoryRow;
      path: string;
      prefix: string[];
      companyFolder: boolean;
    };
export type DirectoryPlace = Extract<Place, { kind: 'directory' }>;

/** An item of a directory named as its listing names it: a directory (with where it leads) or a live workflow. */
export type ResolvedItem = { kind: 'directory'; place: DirectoryPlace } | { kind: 'workflow'; row: q.WorkflowRow };

/** The provider's people belong to no company: they see every company's tree below theirs. */
export const isProvider = (auth: RequestAuth) => auth.companyId === null;

/**
 * How a caller's paths lead to directories and items (and ids to workflows) within what the caller
 * may see, and how the caller spells a directory's path.
 */
export function createPlaces(db: Db) {
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
      // Every company's folder is the provider's; a tenant header naming another is refused below (403).
      const company = await findCompany(executor, EVERY_TENANT, { name: rest[0]! });
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

  /** The items of a directory named as its listing names them; a name that is not there answers 404. */
  async function resolveItems(
    auth: RequestAuth,
    place: Place,
    names: readonly string[],
    executor: Executor = db,
  ): Promise<ResolvedItem[]> {
    const items: ResolvedItem[] = [];
    for (const name of new Set(names)) {
      if (place.kind === 'directory') {
        const row = await q.findLiveWorkflowByFile(executor, oneTenant(place.tenantId), place.directory.id, name);
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

  /** The paths of directories as the caller spells them ('Workflows/…' or 'Workflows/<company>/…'). */
  async function spellPaths(auth: RequestAuth, directoryIds: readonly number[], executor: Executor = db) {
    const scope = scopeOf(auth);
    const paths = await q.idPaths(executor, scope, directoryIds);
    const allIds = [...paths.values()].flatMap((row) => row.idPath.split('/').filter(Boolean).map(Number));
    const names = await q.directoryNames(executor, scope, allIds);
    const tenants = [...new Set([...paths.values()].map((row) => row.tenantId))];
    const companies = new Map(
      isProvider(auth)
        ? (await selectCompanies(executor, EVERY_TENANT, byTenantIds(tenants))).map((company) => [
            company.tenantId,
            company.name,
          ])
        : [],
    );
    const spelt = new Map<number, string>();
    for (const [id, row] of paths) {
      const below = row.idPath
        .split('/')
        .filter(Boolean)
        .slice(1)
        .map((part) => names.get(Number(part)) ?? '');
      spelt.set(id, spellPath(auth, companies.get(row.tenantId) ?? '', below));
    }
    return spelt;
  }

  /** A live workflow the caller may see (locked for the caller's transaction), or 404 ERROR_WORKFLOW_NOT_EXIST. */
  async function visibleWorkflow(auth: RequestAuth, id: number, executor: Executor = db, lock = false) {
    const row = await q.findWorkflow(executor, scopeOf(auth), id, lock);
    if (!row) throw notFound('ERROR_WORKFLOW_NOT_EXIST');
    return row;
  }

  return { resolve, resolveDirectory, resolveItems, spellPaths, visibleWorkflow };
}

export type Places = ReturnType<typeof createPlaces>;

/** A directory's path as the caller spells it, from its company's name and the directories below its tree's root. */
export const spellPath = (auth: RequestAuth, company: string, below: readonly string[]) =>
  joinPath(...(isProvider(auth) ? [ROOT_DIRECTORY, company] : [ROOT_DIRECTORY]), ...below);

/** The provider's company folders are made and removed with their companies, never by hand. */
export function refuseCompanyFolders(items: readonly ResolvedItem[]) {
  if (items.some((item) => item.kind === 'directory' && item.place.companyFolder)) {
    throw forbidden('ERROR_DIRECTORY_PROTECTED');
  }
}
