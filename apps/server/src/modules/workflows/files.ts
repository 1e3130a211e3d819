import type { UploadedFile } from '@opsdeck/contract/accounts';
import { FORBIDDEN_NAME_CHARS, LIMITS } from '@opsdeck/contract/limits';
import { WORKFLOW_FILE_EXTENSION } from '@opsdeck/contract/workflows';
import { RaxError } from '@opsdeck/rax/format';
import { readRax } from '@opsdeck/rax/read';
import type { Executor } from '../../db/client';
import { badRequest } from '../../platform/errors';
import type { BlobStore } from './blob-store';
import * as q from './queries';

/**
 * A workflow's files (docs/workflows.md): what an upload must be, how its name is kept, and how it
 * becomes the workflow's next version.
 */

/** A checked upload: its name as stored, its bytes and what its manifest says. */
export type CheckedFile = { fileName: string; bytes: Uint8Array; activityKeys: string[]; steps: number };

export const FILE_UNSUPPORTED = { file: 'ERROR_WORKFLOW_FILE_UNSUPPORTED' } as const;
export const FILE_EXIST = { file: 'ERROR_WORKFLOW_FILE_EXIST' } as const;

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
export const workflowFileName = (base: string) =>
  base.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION) ? base : `${base}${WORKFLOW_FILE_EXTENSION}`;

export const baseName = (fileName: string) =>
  fileName.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION)
    ? fileName.slice(0, -WORKFLOW_FILE_EXTENSION.length)
    : fileName;
