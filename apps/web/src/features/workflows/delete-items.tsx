import { List, Stack, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { DeleteCount, DirectoryItem } from '@opsdeck/contract/workflows';
import { useTranslation } from 'react-i18next';
import { DeleteModal } from '../../components/delete-modal';
import { LoadForEdit } from '../../components/load-for-edit';
import { truncateText } from '../../lib/truncate';
import { deletePreviewQueryOptions, workflowKeys } from '../../resources/workflows';
import {
  ITEMS_DELETE_FAILURE,
  type Place,
  useDeleteDirectory,
  useDeleteItems,
  useDeleteWorkflow,
  WORKFLOW_DELETE_FAILURE,
} from './api';

type Item = Pick<DirectoryItem, 'type' | 'name' | 'fileName'>;

const cut = (name: string) => truncateText(name, LIMITS.truncate.modalName);

/** One workflow, archived (spec section 8: one that is gone closes with the not-exist toast, the list reloads). */
export function DeleteWorkflowModal({
  place,
  workflow,
  onClose,
}: {
  place: Place;
  workflow: { id: number; name: string };
  onClose: () => void;
}) {
  const remove = useDeleteWorkflow();
  return (
    <DeleteModal
      area="workflows.deleteWorkflow"
      name={workflow.name}
      remove={() => remove.mutateAsync({ id: workflow.id, place })}
      failure={WORKFLOW_DELETE_FAILURE}
      onClose={onClose}
    />
  );
}

interface DeleteItemsProps {
  place: Place;
  /** A directory, or several items of the place's directory. */
  items: readonly Item[];
  onClose: () => void;
}

/** What the confirm says goes: the directory or items, and how many workflows are archived with them. */
function DeleteQuestion({ items, count }: { items: readonly Item[]; count: DeleteCount }) {
  const { t } = useTranslation();
  const [first] = items;
  if (items.length === 1 && first?.type === 'directory') {
    const folders = count.directories - 1;
    return (
      <Stack gap="xs">
        <Text>{t('workflows.deleteDirectory.question', { name: cut(first.name), count: count.workflows })}</Text>
        {folders > 0 && <Text>{t('workflows.deleteDirectory.folders', { count: folders })}</Text>}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Text>
        {t('workflows.deleteItems.question', { count: items.length })}{' '}
        {t('workflows.deleteItems.archives', { count: count.workflows })}
      </Text>
      <List size="sm" spacing={2} aria-label={t('workflows.deleteItems.itemsLabel')}>
        {items.map((item) => (
          <List.Item key={item.fileName}>{cut(item.name)}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

/**
 * A directory, or several items, deleted with the workflows in them archived. The server first
 * says what a delete would take (POST /api/directory/delete/preview), which the confirm shows; if
 * that cannot be read the dialog closes with a toast and the list reloads.
 */
export function DeleteItemsModal({ place, items, onClose }: DeleteItemsProps) {
  const { t } = useTranslation();
  const deleteDirectory = useDeleteDirectory();
  const deleteItems = useDeleteItems();
  const files = items.map((item) => item.fileName);
  const [first] = items;
  const oneDirectory = items.length === 1 && first?.type === 'directory' ? first : null;
  const name = oneDirectory ? oneDirectory.name : t('workflows.deleteItems.name', { count: items.length });
  return (
    <LoadForEdit
      query={deletePreviewQueryOptions({ files, directory: place.directory }, place.tenantId)}
      invalidate={workflowKeys.all}
      onClose={onClose}
    >
      {(count) => (
        <DeleteModal
          area={oneDirectory ? 'workflows.deleteDirectory' : 'workflows.deleteItems'}
          name={name}
          remove={() =>
            oneDirectory
              ? deleteDirectory.mutateAsync({ place, name: oneDirectory.name })
              : deleteItems.mutateAsync({ place, files })
          }
          failure={ITEMS_DELETE_FAILURE}
          onClose={onClose}
        >
          <DeleteQuestion items={items} count={count} />
        </DeleteModal>
      )}
    </LoadForEdit>
  );
}
