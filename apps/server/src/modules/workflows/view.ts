import { parseSort } from '@opsdeck/contract/paging';
import {
  type DirectoryItem,
  type DirectoryPage,
  type DirectoryView,
  ROOT_DIRECTORY,
} from '@opsdeck/contract/workflows';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import type { EventBus } from '../../platform/events';
import { createListPages, ListCache } from '../../platform/list-counts';
import { inIdOrder } from '../../platform/search';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { byIds, countCompanies, pageCompanyIds, selectCompanies } from '../companies/queries';
import { completeNames } from '../users/queries';
import * as listing from './listing';
import { isProvider, type Place, type Places, spellPath } from './places';
import * as q from './queries';

/**
 * The Workflows table's pages (docs/workflows.md): a directory's items, directories first; the
 * provider's company folders; and the search below a directory. Each page reads its rows in one
 * statement (listing.ts); its total is exact and kept between requests, evicted by the areas'
 * domain events (platform/list-counts.ts), so a page of a directory of 10,000 workflows does not
 * count them again each time (docs/performance.md, "The workflows table at 500 requests a second").
 */

const SORT_COLUMNS = {
  name: 'name',
  description: 'description',
  createDate: 'created_at',
  updateDate: 'updated_at',
  size: 'size',
} as const satisfies Record<string, listing.ItemOrder['column']>;

function orderOf(sort: string | undefined): listing.ItemOrder {
  const parsed = parseSort(sort);
  const column = parsed ? SORT_COLUMNS[parsed.field as keyof typeof SORT_COLUMNS] : undefined;
  return { column: column ?? 'name', descending: parsed?.direction === 'desc' };
}

/** A page row as the table shows it, in the directory spelt `parent`. */
export function directoryItem(row: listing.ItemRow, parent: string): DirectoryItem {
  const isDirectory = row.kind === 0;
  return {
    type: isDirectory ? 'directory' : 'workflow',
    name: row.name,
    fileName: row.file_name,
    parent,
    id: isDirectory ? null : row.id,
    description: row.description,
    size: row.size,
    premium: row.premium,
    createDate: Number(row.created_at),
    updateDate: Number(row.updated_at),
    creator: row.creator,
    updatedBy: row.updater,
    protected: false,
  };
}

/** The resources whose changes change a page's total: its rows, and the company folders. */
const COUNTED = ['workflows', 'directories', 'companies'] as const;

export function createView({ db, events, places }: { db: Db; events?: EventBus; places: Places }) {
  // Without a bus (some tests) nothing would evict them: the totals are then counted every time.
  const directoryCounts = events
    ? new ListCache<{ directories: number; workflows: number }>(events, { dependsOn: COUNTED })
    : null;
  const searchCounts = events ? new ListCache<number>(events, { dependsOn: COUNTED }) : null;
  // The ids of a search's pages (platform/list-counts.ts): which workflows, in which order, depend
  // on the same rows as the total; the rows themselves (their people, whether premium) are read
  // fresh for each request.
  const searchPages = events ? createListPages(events, COUNTED) : null;
  // Where a path leads (places.resolve: the tree's root, then a query per directory of the path),
  // kept per caller and path until a directory or a company (the provider's folder names) changes.
  const placesKept = events ? new ListCache<Place>(events, { dependsOn: ['directories', 'companies'] }) : null;

  const placeOf = (auth: RequestAuth, path: string) => {
    const load = () => places.resolve(auth, path);
    if (!placesKept) return load();
    // A company's users all read their own tree; the provider's path names the company.
    const provider = isProvider(auth);
    const scope = provider || auth.tenantId === null ? EVERY_TENANT : oneTenant(auth.tenantId);
    return placesKept.get(scope, [provider, auth.tenantId, path], load);
  };

  const countsOf = (directory: q.DirectoryRow) => {
    const load = () => listing.directoryCounts(db, directory);
    return directoryCounts ? directoryCounts.get(oneTenant(directory.tenantId), directory.id, load) : load();
  };

  /** What a search's total and pages are kept under: its place and its normalised filter. */
  const searchKey = (within: listing.SearchWithin, search: listing.WorkflowSearch) => {
    const { directory, deep } = within;
    return {
      scope: directory ? oneTenant(directory.tenantId) : EVERY_TENANT,
      filter: [directory?.id ?? null, deep, search.text?.toLowerCase() ?? null, search.from ?? null, search.to ?? null],
    };
  };

  const countSearch = (within: listing.SearchWithin, search: listing.WorkflowSearch) => {
    const load = () => listing.searchCount(db, within, search);
    if (!searchCounts) return load();
    const { scope, filter } = searchKey(within, search);
    return searchCounts.get(scope, filter, load);
  };

  const searchPageIds = (
    within: listing.SearchWithin,
    search: listing.WorkflowSearch,
    paging: { offset: number; limit: number; order: listing.ItemOrder },
  ) => {
    const load = () => listing.searchPageIds(db, within, search, paging);
    if (!searchPages) return load();
    const { scope, filter } = searchKey(within, search);
    return searchPages.get(scope, { filter, paging }, load);
  };

  /** The provider's root: a page of the company folders, each its company's tree's root. */
  async function companyFolders(paging: { offset: number; limit: number; order: listing.ItemOrder }) {
    const { order } = paging;
    const direction = order.column === 'name' && order.descending ? 'desc' : 'asc';
    const ids = await pageCompanyIds(db, undefined, { field: 'name', direction }, paging.limit, paging.offset);
    const rows = inIdOrder(ids, await selectCompanies(db, EVERY_TENANT, byIds(ids)));
    const total = await countCompanies(db, undefined);
    // A company's folder is its tree's root: when it was made and last changed, and by whom.
    const roots = await q.treeRoots(
      db,
      rows.flatMap((company) => company.tenantId ?? []),
    );
    const people = await completeNames(
      db,
      EVERY_TENANT,
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
    return { items, total };
  }

  return {
    /**
     * One page of a directory (directories first), or of the workflows below it matching a search.
     * `workflowsOnly`: POST /api/workflow/view, which lists no directories.
     */
    async view(auth: RequestAuth, query: DirectoryView, workflowsOnly = false): Promise<DirectoryPage> {
      const place = await placeOf(auth, query.parent);
      const order = orderOf(query.sort);
      const paging = { offset: (query.page - 1) * query.size, limit: query.size, order };
      const searching = Boolean(query.search) || query.from !== undefined || query.to !== undefined;
      const tenantId = place.kind === 'directory' ? place.tenantId : null;
      const pageOf = ({ items, total }: { items: DirectoryItem[]; total: number }): DirectoryPage => ({
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
        if (directory === null && !searching) return pageOf({ items: [], total: 0 });
        const within = { directory, deep: searching };
        const total = await countSearch(within, search);
        const rows =
          paging.offset < total ? await listing.searchHits(db, await searchPageIds(within, search, paging)) : [];
        const items = rows.map((row) => directoryItem(row, spellPath(auth, row.company ?? '', row.below_root ?? [])));
        return pageOf({ items, total });
      }
      if (place.kind === 'providerRoot') return pageOf(await companyFolders(paging));
      const counts = await countsOf(place.directory);
      const total = counts.directories + counts.workflows;
      const rows =
        paging.offset < total ? await listing.directoryPage(db, place.directory, counts.directories, paging) : [];
      return pageOf({ items: rows.map((row) => directoryItem(row, place.path)), total });
    },
  };
}
