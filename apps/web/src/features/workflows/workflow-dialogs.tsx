import type { DirectoryItem } from '@opsdeck/contract/workflows';
import { LoadForEdit } from '../../components/load-for-edit';
import { workflowKeys, workflowQueryOptions } from '../../resources/workflows';
import { type Place, placeOf } from './api';
import { DeleteItemsModal, DeleteWorkflowModal } from './delete-items';
import { CreateDirectoryModal, RenameDirectoryModal, RenameItemsModal } from './directory-forms';
import { DownloadItemsModal, DownloadWorkflowModal } from './download-items';
import { WorkflowViewModal } from './workflow-details';
import { WorkflowFormModal } from './workflow-form';

/** A workflow row: a listing item with its id. */
type WorkflowItem = DirectoryItem & { id: number };

/** The workflow list's dialogs (spec section 2), each with the place it acts on. */
export type WorkflowDialog =
  | { kind: 'createWorkflow'; place: Place; file?: File }
  | { kind: 'createDirectory'; place: Place }
  | { kind: 'editWorkflow' | 'viewWorkflow'; place: Place; id: number }
  | { kind: 'renameDirectory'; place: Place; item: DirectoryItem }
  | { kind: 'renameItems' | 'deleteItems' | 'downloadItems'; place: Place; items: DirectoryItem[] }
  | { kind: 'deleteWorkflow' | 'downloadWorkflow'; place: Place; item: WorkflowItem };

const oneWorkflow = (items: readonly DirectoryItem[]): WorkflowItem | null => {
  const [first] = items;
  return items.length === 1 && first?.type === 'workflow' && first.id !== null ? { ...first, id: first.id } : null;
};

/**
 * The dialog of an action on the selected items (all of one directory, see itemActions): one
 * workflow, one directory and several items each have their own.
 */
export function dialogFor(
  action: 'open' | 'edit' | 'remove' | 'download',
  items: readonly DirectoryItem[],
  tenantId: string | null,
  editable: boolean,
): WorkflowDialog | null {
  const [first] = items;
  if (!first) return null;
  const place = placeOf(first, tenantId);
  const workflow = oneWorkflow(items);
  switch (action) {
    case 'open':
      return workflow ? { kind: editable ? 'editWorkflow' : 'viewWorkflow', place, id: workflow.id } : null;
    case 'edit':
      if (workflow) return { kind: 'editWorkflow', place, id: workflow.id };
      return items.length === 1
        ? { kind: 'renameDirectory', place, item: first }
        : { kind: 'renameItems', place, items: [...items] };
    case 'remove':
      return workflow
        ? { kind: 'deleteWorkflow', place, item: workflow }
        : { kind: 'deleteItems', place, items: [...items] };
    case 'download':
      return workflow
        ? { kind: 'downloadWorkflow', place, item: workflow }
        : { kind: 'downloadItems', place, items: [...items] };
  }
}

/** The open dialog, rendered only while open. */
export function WorkflowDialogs({ dialog, onClose }: { dialog: WorkflowDialog | null; onClose: () => void }) {
  if (!dialog) return null;
  const { place } = dialog;
  switch (dialog.kind) {
    case 'createWorkflow':
      return <WorkflowFormModal place={place} file={dialog.file} onClose={onClose} />;
    case 'createDirectory':
      return <CreateDirectoryModal place={place} onClose={onClose} />;
    case 'editWorkflow':
    case 'viewWorkflow':
      // Loaded fresh: the form edits what is stored now, with every version (spec section 4).
      return (
        <LoadForEdit
          query={workflowQueryOptions(dialog.id, place.tenantId)}
          invalidate={workflowKeys.all}
          onClose={onClose}
        >
          {(workflow) =>
            dialog.kind === 'editWorkflow' ? (
              <WorkflowFormModal
                place={{ ...place, directory: workflow.directory }}
                workflow={workflow}
                onClose={onClose}
              />
            ) : (
              <WorkflowViewModal workflow={workflow} tenantId={place.tenantId} onClose={onClose} />
            )
          }
        </LoadForEdit>
      );
    case 'renameDirectory':
      return <RenameDirectoryModal place={place} directory={dialog.item} onClose={onClose} />;
    case 'renameItems':
      return <RenameItemsModal place={place} items={dialog.items} onClose={onClose} />;
    case 'deleteWorkflow':
      return <DeleteWorkflowModal place={place} workflow={dialog.item} onClose={onClose} />;
    case 'deleteItems':
      return <DeleteItemsModal place={place} items={dialog.items} onClose={onClose} />;
    case 'downloadWorkflow':
      return <DownloadWorkflowModal place={place} workflow={dialog.item} onClose={onClose} />;
    case 'downloadItems':
      return <DownloadItemsModal place={place} items={dialog.items} onClose={onClose} />;
  }
}
