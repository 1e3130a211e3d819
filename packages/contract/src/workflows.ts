import { z } from 'zod';
import { UploadedFile } from './accounts';
import { epochText, idParams, idText, name, searchText } from './fields';
import { LIMITS } from './limits';
import { pageOf } from './paging';

/**
 * Workflows and directories (spec sections 2, 3, 5 and 7; docs/workflows.md). A company's tree is
 * addressed by paths of names joined by '/', starting at its root 'Workflows'
 * ('Workflows/Finance/Invoices'). The provider administrator's root 'Workflows' holds one folder
 * per company, named as the company: 'Workflows/Northwind Logistics/Finance'.
 */
export const ROOT_DIRECTORY = 'Workflows';
export const WORKFLOW_FILE_EXTENSION = '.rax';
export const MAX_PATH_LENGTH = 4096;

/** A directory path as the calls take it: 'Workflows' and names below it, joined by '/'. */
export const directoryPath = () =>
  z
    .string({ error: 'ERROR_DIRECTORY_NOT_EXIST' })
    .trim()
    .min(1, 'ERROR_DIRECTORY_NOT_EXIST')
    .max(MAX_PATH_LENGTH, 'ERROR_DIRECTORY_NOT_EXIST');

/** The names of a path; the first is the root. */
export const pathSegments = (path: string): string[] =>
  path
    .split('/')
    .map((segment) => segment.trim())
    .filter((segment) => segment.length > 0);

export const joinPath = (...segments: string[]) => segments.join('/');

const directoryName = () =>
  name({
    required: 'ERROR_DIRECTORY_NAME_REQUIRED',
    tooLong: 'ERROR_DIRECTORY_NAME_TOO_LONG',
    invalid: 'ERROR_DIRECTORY_NAME_INVALID',
  });

const workflowName = () =>
  name({
    required: 'ERROR_WORKFLOW_NAME_REQUIRED',
    tooLong: 'ERROR_WORKFLOW_NAME_TOO_LONG',
    invalid: 'ERROR_WORKFLOW_NAME_INVALID',
  });

const description = () =>
  z
    .string({ error: 'ERROR_GENERAL_INVALID_INPUT' })
    .trim()
    .max(LIMITS.descriptionMax, 'ERROR_WORKFLOW_DESCRIPTION_TOO_LONG')
    .nullish()
    .transform((value) => value ?? '');

/** Who made or last changed a row. */
const Person = z.object({ id: z.number().int().nullable(), completeName: z.string() });

/** One version of a workflow's file: every upload is kept. */
export const WorkflowVersion = z
  .object({
    id: z.number().int(),
    /** 1 for the first upload, counting up. */
    number: z.number().int(),
    fileName: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    /** Epoch milliseconds. */
    createDate: z.number().int(),
    createdBy: Person,
  })
  .meta({ id: 'WorkflowVersion' });
export type WorkflowVersion = z.infer<typeof WorkflowVersion>;

/** Spec section 3, Workflow. `premium` when a step uses an activity only the 'pro' licence type unlocks. */
export const Workflow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    /** The path of its directory. */
    directory: z.string(),
    /** The current file's name, unique in its directory (the spec's `file` and `originalFilename`). */
    file: z.string(),
    originalFilename: z.string(),
    size: z.number().int(),
    premium: z.boolean(),
    createDate: z.number().int(),
    updateDate: z.number().int(),
    creator: Person,
    updatedBy: Person,
    tenantId: z.string(),
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof Workflow>;

/** An activity a workflow's steps use, with its catalogue name when the catalogue has it. */
export const WorkflowActivity = z.object({
  key: z.string(),
  name: z.string().nullable(),
  premium: z.boolean(),
});
export type WorkflowActivity = z.infer<typeof WorkflowActivity>;

/** GET /api/workflow/{id}: the workflow, the activities its current file uses, and every version. */
export const WorkflowDetail = Workflow.extend({
  steps: z.number().int(),
  activities: z.array(WorkflowActivity),
  versions: z.array(WorkflowVersion),
}).meta({ id: 'WorkflowDetail' });
export type WorkflowDetail = z.infer<typeof WorkflowDetail>;

/** A row of a directory listing: a directory or a workflow (spec section 3: items carry a type). */
export const DirectoryItem = z
  .object({
    type: z.enum(['directory', 'workflow']),
    /** The directory's name, or the workflow's. */
    name: z.string(),
    /** The name that addresses the item in its directory: a directory's name, a workflow's file name. */
    fileName: z.string(),
    /** The path of the directory holding the item (search hits come from below the current directory). */
    parent: z.string(),
    /** A workflow's id; null for a directory. */
    id: z.number().int().nullable(),
    description: z.string(),
    size: z.number().int().nullable(),
    premium: z.boolean(),
    createDate: z.number().int(),
    updateDate: z.number().int(),
    creator: z.string(),
    updatedBy: z.string(),
    /** A company folder of the provider's root: neither renamed nor deleted. */
    protected: z.boolean(),
  })
  .meta({ id: 'DirectoryItem' });
export type DirectoryItem = z.infer<typeof DirectoryItem>;

export const DIRECTORY_SORT_FIELDS = ['name', 'description', 'createDate', 'updateDate', 'size'] as const;

/**
 * POST /api/directory/view and /api/workflow/view: one page of a directory, directories first,
 * or (with `search`, `from` or `to`) the workflows of the directory and everything below it whose
 * name or description contains `search` and whose createDate is in [from, to].
 */
export const DirectoryView = z
  .object({
    parent: directoryPath(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    size: z.coerce.number().int().min(1).max(100).default(LIMITS.pageSize),
    sort: z
      .string()
      .regex(new RegExp(`^(${DIRECTORY_SORT_FIELDS.join('|')})(,(asc|desc))?$`), 'ERROR_GENERAL_INVALID_INPUT')
      .optional(),
    search: searchText(),
    from: epochText().optional(),
    to: epochText().optional(),
  })
  .meta({ id: 'DirectoryView' });
export type DirectoryView = z.infer<typeof DirectoryView>;
export type DirectoryViewInput = z.input<typeof DirectoryView>;

export const DirectoryPage = pageOf(DirectoryItem)
  .extend({
    /** The directory listed, as the server spells it. */
    path: z.string(),
    /** The company whose tree this is: null at the provider's root, which holds the company folders. */
    tenantId: z.string().nullable(),
  })
  .meta({ id: 'DirectoryPage' });
export type DirectoryPage = z.infer<typeof DirectoryPage>;

/** GET /api/directory/root-directory. */
export const RootDirectory = z.object({ name: z.literal(ROOT_DIRECTORY) }).meta({ id: 'RootDirectory' });

/** POST /api/workflow/create and PUT /api/workflow/{id} (form data; the file is optional on update). */
export const SaveWorkflow = z
  .object({
    name: workflowName(),
    description: description(),
    directory: directoryPath(),
    file: UploadedFile.optional(),
  })
  .meta({ id: 'SaveWorkflow' });
export type SaveWorkflow = z.infer<typeof SaveWorkflow>;
export type SaveWorkflowInput = z.input<typeof SaveWorkflow>;

export const WorkflowIdParams = idParams('ERROR_WORKFLOW_NOT_EXIST');

/** POST /api/workflow/delete/{id} (form data): the directory it is in. */
export const DeleteWorkflow = z.object({ directory: directoryPath() }).meta({ id: 'DeleteWorkflow' });

/** GET /api/workflow/download/{id}: `rename=true` names the file after the workflow; `version` picks an earlier file. */
export const WorkflowDownloadQuery = z.object({
  rename: z
    .enum(['true', 'false'], { error: 'ERROR_GENERAL_INVALID_INPUT' })
    .optional()
    .transform((value) => value === 'true'),
  version: idText('ERROR_WORKFLOW_NOT_EXIST').optional(),
});

/** POST /api/directory/create. */
export const CreateDirectory = z
  .object({ name: directoryName(), parent: directoryPath() })
  .meta({ id: 'CreateDirectory' });
export type CreateDirectory = z.infer<typeof CreateDirectory>;

/** POST /api/directory/update: rename `current` in `parent` to `new`. */
export const RenameDirectory = z
  .object({ current: directoryName(), new: directoryName(), parent: directoryPath() })
  .meta({ id: 'RenameDirectory' });
export type RenameDirectory = z.infer<typeof RenameDirectory>;

/** At most this many items in one multi-file call. */
export const MAX_ITEMS_PER_CALL = 1000;

/** Items of a directory named as its listing names them (`DirectoryItem.fileName`). */
const itemNames = () =>
  z
    .array(z.string().trim().min(1).max(LIMITS.nameMax), { error: 'ERROR_GENERAL_INVALID_INPUT' })
    .min(1, 'ERROR_GENERAL_INVALID_INPUT')
    .max(MAX_ITEMS_PER_CALL, 'ERROR_GENERAL_INVALID_INPUT');

/** POST /api/directory/update/multiple: rename the items `files` of `directory` after `newFileName`. */
export const RenameItems = z
  .object({ files: itemNames(), newFileName: directoryName(), directory: directoryPath() })
  .meta({ id: 'RenameItems' });
export type RenameItems = z.infer<typeof RenameItems>;

export const RenamedItems = z
  .object({ renamed: z.array(z.object({ from: z.string(), to: z.string() })) })
  .meta({ id: 'RenamedItems' });
export type RenamedItems = z.infer<typeof RenamedItems>;

/** POST /api/directory/delete. */
export const DeleteDirectory = z
  .object({ name: directoryName(), parent: directoryPath() })
  .meta({ id: 'DeleteDirectory' });
export type DeleteDirectory = z.infer<typeof DeleteDirectory>;

/** POST /api/directory/delete/multiple and /api/directory/delete/preview. */
export const ItemsOfDirectory = z
  .object({ files: itemNames(), directory: directoryPath() })
  .meta({ id: 'ItemsOfDirectory' });
export type ItemsOfDirectory = z.infer<typeof ItemsOfDirectory>;

/** What a delete takes (preview) or took: directories removed, workflows archived, below and including the items. */
export const DeleteCount = z
  .object({ directories: z.number().int(), workflows: z.number().int() })
  .meta({ id: 'DeleteCount' });
export type DeleteCount = z.infer<typeof DeleteCount>;

/** GET /api/directory/download. */
export const DirectoryDownloadQuery = z.object({ name: directoryName(), parent: directoryPath() });

/** GET /api/directory/download/multiple: `fileNames` repeated. */
export const ItemsDownloadQuery = z.object({
  directory: directoryPath(),
  fileNames: z.preprocess((value) => (typeof value === 'string' ? [value] : value), itemNames()),
});
