import type { Ok } from '@opsdeck/contract/auth';
import {
  type DeleteCount,
  type DirectoryItem,
  pathSegments,
  type RenamedItems,
  type Workflow,
} from '@opsdeck/contract/workflows';
import { ApiError, apiDownload, apiRequest, apiUpload, isApiError } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { workflowKeys } from '../../resources/workflows';

const touched = [workflowKeys.all];

/**
 * Where a call acts: a directory's path, and the tenant of the page that listed it (sent as the
 * tenant header; null sends none). The provider administrator acts on a company through its folder.
 */
export interface Place {
  directory: string;
  tenantId: string | null;
}

/** The place of an item: its own directory, which a search's hit may have below the listed one. */
export const placeOf = (item: Pick<DirectoryItem, 'parent'>, tenantId: string | null): Place => ({
  directory: item.parent,
  tenantId,
});

/** What the workflow form sends (spec section 7: form data name, description, directory, file). */
export interface WorkflowFields {
  name: string;
  description: string;
  /** Required to create; a new version when updating. */
  file: File | null;
}

function workflowFormData(fields: WorkflowFields, directory: string): FormData {
  const data = new FormData();
  data.append('name', fields.name);
  data.append('description', fields.description);
  data.append('directory', directory);
  if (fields.file) data.append('file', fields.file);
  return data;
}

/** Spec section 8, Workflow: a missing id reads as a workflow that is not there. */
function notExistOf(error: unknown): unknown {
  if (isApiError(error) && error.key === 'ERROR_WORKFLOW_ID_REQUIRED')
    return new ApiError(error.status, 'ERROR_WORKFLOW_NOT_EXIST', error.message, { ...error.fields });
  return error;
}

async function readingMissingId<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw notExistOf(error);
  }
}

interface SaveWorkflowVariables {
  place: Place;
  fields: WorkflowFields;
  /** The share of the file sent, 0 to 1. */
  onProgress?: (sent: number) => void;
}

/** POST /api/workflow/create (multipart), reporting the upload's progress. */
export function useCreateWorkflow() {
  return useResourceMutation(
    ({ place, fields, onProgress }: SaveWorkflowVariables) =>
      apiUpload<Workflow>('/workflow/create', {
        body: workflowFormData(fields, place.directory),
        tenantId: place.tenantId,
        onProgress,
      }),
    touched,
  );
}

/** PUT /api/workflow/{id} (multipart): the file is optional, and a new one makes a new version. */
export function useUpdateWorkflow() {
  return useResourceMutation(
    ({ id, place, fields, onProgress }: SaveWorkflowVariables & { id: number }) =>
      readingMissingId(() =>
        apiUpload<Workflow>(`/workflow/${id}`, {
          method: 'PUT',
          body: workflowFormData(fields, place.directory),
          tenantId: place.tenantId,
          onProgress,
        }),
      ),
    touched,
  );
}

/** A POST of the area: its body names the place's directory, and it goes with the place's tenant. */
const postIn = <T>(place: Place, path: string, body: Record<string, unknown>) =>
  apiRequest<T>(path, { method: 'POST', body, tenantId: place.tenantId });

/** POST /api/workflow/delete/{id}: archives the workflow. */
export function useDeleteWorkflow() {
  return useResourceMutation(
    ({ id, place }: { id: number; place: Place }) =>
      readingMissingId(() => postIn<Ok>(place, `/workflow/delete/${id}`, { directory: place.directory })),
    touched,
  );
}

/** POST /api/directory/create. */
export function useCreateDirectory() {
  return useResourceMutation(
    ({ place, name }: { place: Place; name: string }) =>
      postIn<DirectoryItem>(place, '/directory/create', { name, parent: place.directory }),
    touched,
  );
}

/** POST /api/directory/update: renames `current` in the place's directory. */
export function useRenameDirectory() {
  return useResourceMutation(
    ({ place, current, name }: { place: Place; current: string; name: string }) =>
      postIn<Ok>(place, '/directory/update', { current, new: name, parent: place.directory }),
    touched,
  );
}

/** POST /api/directory/update/multiple: the items (by file name) after one name, made unique by the server. */
export function useRenameItems() {
  return useResourceMutation(
    ({ place, files, newFileName }: { place: Place; files: string[]; newFileName: string }) =>
      postIn<RenamedItems>(place, '/directory/update/multiple', { files, newFileName, directory: place.directory }),
    touched,
  );
}

/** POST /api/directory/delete: the directory, its folders, and its workflows archived. */
export function useDeleteDirectory() {
  return useResourceMutation(
    ({ place, name }: { place: Place; name: string }) =>
      postIn<DeleteCount>(place, '/directory/delete', { name, parent: place.directory }),
    touched,
  );
}

/** POST /api/directory/delete/multiple. */
export function useDeleteItems() {
  return useResourceMutation(
    ({ place, files }: { place: Place; files: string[] }) =>
      postIn<DeleteCount>(place, '/directory/delete/multiple', { files, directory: place.directory }),
    touched,
  );
}

/**
 * GET /api/workflow/download/{id}: the current file, or an earlier `version`; `rename` names it
 * after the workflow instead of its file name.
 */
export function downloadWorkflow(
  workflow: { id: number; fileName: string },
  place: Pick<Place, 'tenantId'>,
  options: { rename?: boolean; version?: number } = {},
) {
  return apiDownload(`/workflow/download/${workflow.id}`, {
    query: { rename: options.rename ? 'true' : undefined, version: options.version },
    fallbackName: workflow.fileName,
    tenantId: place.tenantId,
  });
}

/** GET /api/directory/download: a zip of the directory, its folders kept. */
export function downloadDirectory(name: string, place: Place) {
  return apiDownload('/directory/download', {
    query: { name, parent: place.directory },
    fallbackName: `${name}.zip`,
    tenantId: place.tenantId,
  });
}

/** GET /api/directory/download/multiple: one zip of the items, named by `fileNames` repeated. */
export function downloadItems(files: readonly string[], place: Place) {
  return apiDownload('/directory/download/multiple', {
    query: { directory: place.directory, fileNames: files },
    fallbackName: `${pathSegments(place.directory).pop() ?? 'workflows'}.zip`,
    tenantId: place.tenantId,
  });
}

/** Spec section 8: the keys of the workflow form that go on its fields, with or without the server naming it. */
export const WORKFLOW_FIELD_KEYS = {
  ERROR_WORKFLOW_FILE_REQUIRED: 'file',
  ERROR_WORKFLOW_FILE_EXIST: 'file',
  ERROR_WORKFLOW_FILE_UNSUPPORTED: 'file',
  ERROR_WORKFLOW_FILE_INVALID: 'file',
  ERROR_WORKFLOW_FILE_TOO_LARGE: 'file',
  ERROR_WORKFLOW_NAME_REQUIRED: 'name',
  ERROR_WORKFLOW_NAME_INVALID: 'name',
  ERROR_WORKFLOW_NAME_TOO_LONG: 'name',
  ERROR_WORKFLOW_DESCRIPTION_TOO_LONG: 'description',
} as const;

/** Directory and file names (spec section 8): required, too long, invalid or taken go on the name field. */
export const DIRECTORY_NAME_KEYS = [
  'ERROR_DIRECTORY_NAME_REQUIRED',
  'ERROR_DIRECTORY_NAME_TOO_LONG',
  'ERROR_DIRECTORY_NAME_INVALID',
  'ERROR_DIRECTORY_NAME_EXIST',
] as const;

/**
 * A workflow's save: a workflow or directory gone meanwhile toasts and closes (the list reloads);
 * anything else stays under the form with what was typed.
 */
export const WORKFLOW_SAVE_FAILURE: FailurePolicy = {
  toast: ['ERROR_WORKFLOW_NOT_EXIST', 'ERROR_DIRECTORY_NOT_EXIST'],
  otherwise: 'form',
};

/** Spec section 8: a workflow's delete that finds none closes with the not-exist toast; others the workflow's general toast. */
export const WORKFLOW_DELETE_FAILURE: FailurePolicy = {
  toast: ['ERROR_WORKFLOW_NOT_EXIST'],
  otherwise: 'general',
  general: 'ERROR_WORKFLOW_GENERAL_INTERNAL',
};

/** A directory's create or rename: a directory gone or protected toasts and closes; others stay under the form. */
export const DIRECTORY_SAVE_FAILURE: FailurePolicy = {
  toast: ['ERROR_DIRECTORY_NOT_EXIST', 'ERROR_DIRECTORY_PROTECTED'],
  otherwise: 'form',
};

/** Deletes of directories and of several items: gone or protected toast; others the general error (spec section 8). */
export const ITEMS_DELETE_FAILURE: FailurePolicy = {
  toast: ['ERROR_DIRECTORY_NOT_EXIST', 'ERROR_DIRECTORY_PROTECTED', 'ERROR_WORKFLOW_NOT_EXIST'],
  otherwise: 'general',
};
