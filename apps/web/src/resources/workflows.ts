import type {
  DeleteCount,
  DirectoryPage,
  DirectoryViewInput,
  ItemsOfDirectory,
  WorkflowDetail,
} from '@opsdeck/contract/workflows';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

/**
 * The workflows resource: directory listings, one workflow's detail and what a delete would take
 * are all views of the workflow tree, under ['workflows'], so any change refreshes each of them.
 *
 * Calls on a listed page's items send that page's tenant (`DirectoryPage.tenantId`, none at the
 * provider's root): the provider administrator acts on a company through its folder.
 */
export const workflowKeys = {
  all: ['workflows'] as const,
  directory: (view: DirectoryViewInput) => ['workflows', 'directory', view] as const,
  detail: (id: number, tenantId: string | null) => ['workflows', 'detail', id, tenantId ?? 'none'] as const,
  deletePreview: (items: ItemsOfDirectory, tenantId: string | null) =>
    ['workflows', 'delete-preview', items, tenantId ?? 'none'] as const,
};

/**
 * One page of a directory (POST /api/directory/view): its folders then its workflows, or with a
 * search or a range the matching workflows of it and everything below it. The path says whose tree
 * it is, so the call names no tenant. Another page of the same directory keeps the rows shown while
 * it loads; another directory does not, so that nothing is done to a folder no longer listed.
 */
export function directoryPageQueryOptions(view: DirectoryViewInput) {
  return queryOptions({
    queryKey: workflowKeys.directory(view),
    queryFn: ({ signal }) =>
      apiRequest<DirectoryPage>('/directory/view', { method: 'POST', body: view, signal, tenantId: null }),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2].parent === view.parent ? previous : undefined,
  });
}

/** A workflow with its versions and the activities its file uses (GET /api/workflow/{id}). */
export function workflowQueryOptions(id: number, tenantId: string | null) {
  return queryOptions({
    queryKey: workflowKeys.detail(id, tenantId),
    queryFn: ({ signal }) => apiRequest<WorkflowDetail>(`/workflow/${id}`, { signal, tenantId }),
  });
}

/** What deleting items would take: the folders removed and workflows archived (POST /api/directory/delete/preview). */
export function deletePreviewQueryOptions(items: ItemsOfDirectory, tenantId: string | null) {
  return queryOptions({
    queryKey: workflowKeys.deletePreview(items, tenantId),
    queryFn: ({ signal }) =>
      apiRequest<DeleteCount>('/directory/delete/preview', { method: 'POST', body: items, signal, tenantId }),
  });
}
