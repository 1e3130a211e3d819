import {
  CreateDirectory,
  RenameDirectory,
  RenameItems,
  SaveWorkflow,
  WORKFLOW_FILE_EXTENSION,
  type WorkflowDetail,
} from '@opsdeck/contract/workflows';
import { z } from 'zod';

/**
 * The workflow's file (spec section 5): required to create, a `.rax` file. Whether its content is
 * a workflow, whether its name is taken, and whether it fits the upload limit only the server says.
 */
const workflowFile = (required: boolean) =>
  z.custom<File | null>().superRefine((file, context) => {
    if (!(file instanceof File)) {
      if (required) context.addIssue({ code: 'custom', message: 'ERROR_WORKFLOW_FILE_REQUIRED' });
    } else if (!file.name.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION)) {
      context.addIssue({ code: 'custom', message: 'ERROR_WORKFLOW_FILE_UNSUPPORTED' });
    }
  });

/** The create (file required) and update (a new file optional) forms, with the contract's name and description rules. */
export const workflowFormSchema = (creating: boolean) =>
  z.object({
    name: SaveWorkflow.shape.name,
    description: SaveWorkflow.shape.description,
    file: workflowFile(creating),
  });

type WorkflowFormSchema = ReturnType<typeof workflowFormSchema>;
/** What the form holds, and what it gives the save (trimmed, the description never null). */
export type WorkflowFormInput = z.input<WorkflowFormSchema>;
export type WorkflowFormValues = z.output<WorkflowFormSchema>;

export const emptyWorkflowForm: WorkflowFormInput = { name: '', description: '', file: null };

export const workflowToForm = (workflow: Pick<WorkflowDetail, 'name' | 'description'>): WorkflowFormInput => ({
  name: workflow.name,
  description: workflow.description,
  file: null,
});

/** The name a file gives an unnamed workflow: its own, without `.rax`. */
export function nameOfFile(file: File): string {
  const name = file.name.trim();
  return name.toLowerCase().endsWith(WORKFLOW_FILE_EXTENSION) ? name.slice(0, -WORKFLOW_FILE_EXTENSION.length) : name;
}

/** A new directory's name. */
export const directoryNameSchema = z.object({ name: CreateDirectory.shape.name });
/** A directory's new name, in the API's field `new` (its errors come back on it). */
export const renameDirectorySchema = z.object({ new: RenameDirectory.shape.new });
/** Several items' one new name (the server numbers them). */
export const renameItemsSchema = z.object({ newFileName: RenameItems.shape.newFileName });
