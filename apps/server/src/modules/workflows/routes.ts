import { Ok } from '@opsdeck/contract/auth';
import { ListFormatQuery } from '@opsdeck/contract/paging';
import {
  CreateDirectory,
  DeleteCount,
  DeleteDirectory,
  DeleteWorkflow,
  DirectoryDownloadQuery,
  DirectoryItem,
  DirectoryPage,
  DirectoryView,
  ItemsDownloadQuery,
  ItemsOfDirectory,
  RenameDirectory,
  RenamedItems,
  RenameItems,
  RootDirectory,
  SaveWorkflow,
  Workflow,
  WorkflowDetail,
  WorkflowDownloadQuery,
  WorkflowIdParams,
} from '@opsdeck/contract/workflows';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import { attachment, sendFile } from '../../platform/content-disposition';
import { type CsvTable, csvAnswer, csvDescription, isoTime, pagedRows, sendTableCsv } from '../../platform/csv-export';
import { registerFormData } from '../../platform/form-data';
import type { WorkflowsService } from './service';
import { zipStream } from './zip';

const tags = ['workflows'];
/** Form-data calls take multipart/form-data (the console) or JSON; a file comes only as multipart. */
const FORM = ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'];
const PATHS =
  "Directories are paths of names joined by '/', from the root 'Workflows'; the provider's root holds a folder per company, named as the company ('Workflows/<company>/…'). A path another company's user sends never leaves its own tree: it answers 404 ERROR_DIRECTORY_NOT_EXIST.";

/**
 * The workflows table as a file (docs/csv-export.md): a directory's listing or a search's hits,
 * with the directory each is in; sizes in bytes, times in ISO 8601 UTC.
 */
const WORKFLOWS_CSV: CsvTable<DirectoryItem> = {
  table: 'workflows',
  columns: {
    type: (item) => item.type,
    name: (item) => item.name,
    description: (item) => item.description,
    file: (item) => (item.type === 'workflow' ? item.fileName : null),
    size: (item) => item.size,
    createDate: (item) => isoTime(item.createDate),
    updateDate: (item) => isoTime(item.updateDate),
    updatedBy: (item) => item.updatedBy,
    path: (item) => item.parent,
  },
};

export const FileBody = z.instanceof(Buffer).meta({ description: 'The file' });

export const workflowRoutes: FastifyPluginAsyncZod<{ workflows: WorkflowsService; maxUploadBytes: number }> = async (
  app,
  { workflows, maxUploadBytes },
) => {
  // Uploads over MAX_UPLOAD_MB answer 413 ERROR_WORKFLOW_FILE_TOO_LARGE, and nothing is stored.
  await registerFormData(app, {
    files: ['file'],
    maxFileBytes: maxUploadBytes,
    fileTooLarge: 'ERROR_WORKFLOW_FILE_TOO_LARGE',
    fileTooLargeStatus: 413,
  });

  const sendZip = (reply: FastifyReply, zip: { fileName: string; entries: Parameters<typeof zipStream>[0] }) =>
    reply
      .type('application/zip')
      .header('content-disposition', attachment(zip.fileName))
      .send(zipStream(zip.entries, (err) => reply.log.error({ err }, 'zip download failed midway')));

  const viewSchema = (summary: string, description: string) => ({
    tags,
    summary,
    description: `${description} ${PATHS}`,
    body: DirectoryView,
    response: { 200: DirectoryPage },
  });

  app.post(
    '/directory/view',
    {
      config: { access: access.anyOf('VIEW_WORKFLOW'), audit: audit.none('a read: a directory listing') },
      schema: {
        ...viewSchema(
          'One page of a directory, or a search below it',
          "Without `search`, `from` or `to`: the directory's directories, then its workflows, each sorted by `sort` (name, description, createDate, updateDate or size, with `,asc` or `,desc`). With them: the workflows of the directory and everything below it whose name or description contains `search` (case-insensitive) and whose createDate is in [from, to]; each item's `parent` is its own directory. " +
            csvDescription('`format` is in the query string; the view, its page and size ignored, in the body.'),
        ),
        querystring: ListFormatQuery,
        response: { 200: csvAnswer(DirectoryPage) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format !== 'csv') return workflows.view(auth, request.body);
      const rows = pagedRows((page, size) => workflows.view(auth, { ...request.body, page, size }), {
        log: request.log,
      });
      return sendTableCsv(reply, WORKFLOWS_CSV, rows);
    },
  );

  app.post(
    '/workflow/view',
    {
      config: { access: access.anyOf('VIEW_WORKFLOW'), audit: audit.none('a read: a search') },
      schema: viewSchema(
        'One page of the workflows of a directory',
        'As POST /api/directory/view, without directories.',
      ),
    },
    async (request) => workflows.view(requireAuth(request), request.body, true),
  );

  app.get(
    '/directory/root-directory',
    {
      config: { access: access.anyOf('VIEW_WORKFLOW') },
      schema: { tags, summary: "The root directory's name", response: { 200: RootDirectory } },
    },
    async () => workflows.root(),
  );

  app.get(
    '/workflow/:id',
    {
      config: { access: access.anyOf('VIEW_WORKFLOW') },
      schema: {
        tags,
        summary: 'A workflow, the activities its file uses, and every version of its file',
        description: 'A workflow of another company, or archived, answers 404 ERROR_WORKFLOW_NOT_EXIST.',
        params: WorkflowIdParams,
        response: { 200: WorkflowDetail },
      },
    },
    async (request) => workflows.get(requireAuth(request), request.params.id),
  );

  app.post(
    '/workflow/create',
    {
      config: { access: access.anyOf('CREATE_WORKFLOW'), audit: audit.action('workflow.upload') },
      schema: {
        tags,
        summary: 'Upload a new workflow',
        description: `Form data name, description, directory and file (a .rax archive, docs/workflows.md). The file is required (ERROR_WORKFLOW_FILE_REQUIRED), must be named .rax (ERROR_WORKFLOW_FILE_UNSUPPORTED) and be a valid .rax archive (ERROR_WORKFLOW_FILE_INVALID) no larger than MAX_UPLOAD_MB (413 ERROR_WORKFLOW_FILE_TOO_LARGE), and its name must be new in the directory (409 ERROR_WORKFLOW_FILE_EXIST, whichever of two concurrent uploads wins). ${PATHS}`,
        consumes: FORM,
        body: SaveWorkflow,
        response: { 201: Workflow },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return workflows.create(requireAuth(request), request.body);
    },
  );

  app.put(
    '/workflow/:id',
    {
      config: { access: access.anyOf('EDIT_WORKFLOW'), audit: audit.of('workflow.update', workflows.get) },
      schema: {
        tags,
        summary: 'Change a workflow; a new file makes a new version',
        description: `The same form data as create; the file is optional. Every earlier file is kept (GET /api/workflow/{id} lists them). A different directory moves the workflow there. ${PATHS}`,
        consumes: FORM,
        params: WorkflowIdParams,
        body: SaveWorkflow,
        response: { 200: Workflow },
      },
    },
    async (request) => workflows.update(requireAuth(request), request.params.id, request.body),
  );

  app.post(
    '/workflow/delete/:id',
    {
      config: { access: access.anyOf('DELETE_WORKFLOW'), audit: audit.of('workflow.delete', workflows.get) },
      schema: {
        tags,
        summary: 'Archive a workflow',
        description: 'Form data `directory`: the directory the workflow is in (else 404 ERROR_WORKFLOW_NOT_EXIST).',
        consumes: FORM,
        params: WorkflowIdParams,
        body: DeleteWorkflow,
        response: { 200: Ok },
      },
    },
    async (request) => workflows.archive(requireAuth(request), request.params.id, request.body.directory),
  );

  app.get(
    '/workflow/download/:id',
    {
      config: { access: access.anyOf('DOWNLOAD_WORKFLOW'), audit: audit.action('workflow.download') },
      schema: {
        tags,
        summary: "A workflow's file",
        description:
          'The current file, or the version `version` names (an id from GET /api/workflow/{id}). `rename=true` names the file after the workflow. Content-Disposition as RFC 6266, with `filename*` for a non-ASCII name.',
        params: WorkflowIdParams,
        querystring: WorkflowDownloadQuery,
        response: { 200: FileBody },
      },
    },
    async (request, reply) =>
      sendFile(reply, await workflows.download(requireAuth(request), request.params.id, request.query)),
  );

  app.post(
    '/directory/create',
    {
      config: { access: access.anyOf('CREATE_WORKFLOW'), audit: audit.action('directory.create') },
      schema: {
        tags,
        summary: 'Make a directory',
        description: `A name new among the items of \`parent\` (case-insensitive: 409 ERROR_DIRECTORY_NAME_EXIST). ${PATHS}`,
        body: CreateDirectory,
        response: { 201: DirectoryItem },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return workflows.createDirectory(requireAuth(request), request.body);
    },
  );

  app.post(
    '/directory/update',
    {
      config: { access: access.anyOf('EDIT_WORKFLOW'), audit: audit.action('directory.rename') },
      schema: {
        tags,
        summary: 'Rename a directory',
        description:
          'Renames `current` in `parent` to `new`; the unchanged name changes nothing. A company folder answers 403 ERROR_DIRECTORY_PROTECTED.',
        body: RenameDirectory,
        response: { 200: Ok },
      },
    },
    async (request) => workflows.renameDirectory(requireAuth(request), request.body),
  );

  app.post(
    '/directory/update/multiple',
    {
      config: { access: access.anyOf('EDIT_WORKFLOW'), audit: audit.action('directory.rename_items') },
      schema: {
        tags,
        summary: 'Rename several items after one name',
        description:
          "`files` are the items' names in `directory` (a directory's name, a workflow's file name). The first takes `newFileName`, the next 'newFileName (2)', 'newFileName (3)' … skipping names the directory holds; workflows keep their .rax extension and take the base name as their name. One transaction.",
        body: RenameItems,
        response: { 200: RenamedItems },
      },
    },
    async (request) => workflows.renameItems(requireAuth(request), request.body),
  );

  app.post(
    '/directory/delete',
    {
      config: { access: access.anyOf('DELETE_WORKFLOW'), audit: audit.action('directory.delete') },
      schema: {
        tags,
        summary: 'Delete a directory',
        description:
          'Removes the directory and every directory below it and archives every workflow below it, in one transaction; answers how many went.',
        body: DeleteDirectory,
        response: { 200: DeleteCount },
      },
    },
    async (request) => workflows.deleteDirectory(requireAuth(request), request.body),
  );

  app.post(
    '/directory/delete/multiple',
    {
      config: { access: access.anyOf('DELETE_WORKFLOW'), audit: audit.action('directory.delete_items') },
      schema: {
        tags,
        summary: 'Delete several items of a directory',
        description: 'Directories go with everything below them; workflows are archived. One transaction.',
        body: ItemsOfDirectory,
        response: { 200: DeleteCount },
      },
    },
    async (request) => workflows.deleteItems(requireAuth(request), request.body),
  );

  app.post(
    '/directory/delete/preview',
    {
      config: { access: access.anyOf('DELETE_WORKFLOW'), audit: audit.none('a read: what a deletion would take') },
      schema: {
        tags,
        summary: 'What deleting these items would take',
        description:
          'The directories that would be removed and the workflows archived; changes nothing (the confirm says how many).',
        body: ItemsOfDirectory,
        response: { 200: DeleteCount },
      },
    },
    async (request) => workflows.deletePreview(requireAuth(request), request.body),
  );

  app.get(
    '/directory/download',
    {
      config: { access: access.anyOf('DOWNLOAD_WORKFLOW') },
      schema: {
        tags,
        summary: 'A directory as a zip',
        description: "Streamed: the folder structure is kept, with each workflow's current file.",
        querystring: DirectoryDownloadQuery,
        response: { 200: FileBody },
      },
    },
    async (request, reply) => sendZip(reply, await workflows.downloadDirectory(requireAuth(request), request.query)),
  );

  app.get(
    '/directory/download/multiple',
    {
      config: { access: access.anyOf('DOWNLOAD_WORKFLOW') },
      schema: {
        tags,
        summary: 'Several items of a directory as one zip',
        description:
          "`fileNames` repeated: the workflow's file name for a workflow, the name for a directory. Named after the directory.",
        querystring: ItemsDownloadQuery,
        response: { 200: FileBody },
      },
    },
    async (request, reply) => sendZip(reply, await workflows.downloadItems(requireAuth(request), request.query)),
  );
};
