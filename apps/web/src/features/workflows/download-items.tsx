import { Checkbox, List, Stack, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { DirectoryItem } from '@opsdeck/contract/workflows';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { truncateText } from '../../lib/truncate';
import { downloadDirectory, downloadItems, downloadWorkflow, type Place } from './api';

type Item = Pick<DirectoryItem, 'type' | 'name' | 'fileName'>;

const cut = (name: string) => truncateText(name, LIMITS.truncate.modalName);

/**
 * Spec section 8: download failures are only logged; the dialog also keeps the failure under its
 * question, so that the user knows nothing was saved and may try again.
 */
async function logged(download: () => Promise<unknown>) {
  try {
    await download();
  } catch (error) {
    console.error('Download failed', error);
    throw error;
  }
}

/** One workflow's current file, named as stored or, when asked, after the workflow (`rename=true`). */
export function DownloadWorkflowModal({
  place,
  workflow,
  onClose,
}: {
  place: Place;
  workflow: { id: number; name: string; fileName: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [rename, setRename] = useState(false);
  return (
    <ConfirmModal
      opened
      onClose={onClose}
      title={t('workflows.download.workflowTitle')}
      onConfirm={() => logged(() => downloadWorkflow(workflow, place, { rename }))}
      success={t('workflows.download.done', { name: cut(workflow.name) })}
      confirmLabel={t('workflows.download.submit')}
    >
      <Stack gap="sm">
        <Text>{t('workflows.download.workflowQuestion', { file: cut(workflow.fileName) })}</Text>
        <Checkbox
          label={t('workflows.download.rename')}
          description={t('workflows.download.renameHelp', { name: cut(workflow.name) })}
          checked={rename}
          onChange={(event) => setRename(event.currentTarget.checked)}
        />
      </Stack>
    </ConfirmModal>
  );
}

/** A directory as a zip (its folders kept), or several items of one directory in one zip. */
export function DownloadItemsModal({
  place,
  items,
  onClose,
}: {
  place: Place;
  items: readonly Item[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [first] = items;
  const directory = items.length === 1 && first?.type === 'directory' ? first : null;
  return (
    <ConfirmModal
      opened
      onClose={onClose}
      title={t(directory ? 'workflows.download.directoryTitle' : 'workflows.download.itemsTitle')}
      onConfirm={() =>
        logged(() =>
          directory
            ? downloadDirectory(directory.name, place)
            : downloadItems(
                items.map((item) => item.fileName),
                place,
              ),
        )
      }
      success={t('workflows.download.done', {
        name: directory ? cut(directory.name) : t('workflows.deleteItems.name', { count: items.length }),
      })}
      confirmLabel={t('workflows.download.submit')}
    >
      {directory ? (
        <Text>{t('workflows.download.directoryQuestion', { name: cut(directory.name) })}</Text>
      ) : (
        <Stack gap="xs">
          <Text>{t('workflows.download.itemsQuestion', { count: items.length })}</Text>
          <List size="sm" spacing={2} aria-label={t('workflows.download.itemsLabel')}>
            {items.map((item) => (
              <List.Item key={item.fileName}>
                {cut(item.type === 'workflow' ? item.fileName : `${item.name}/`)}
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </ConfirmModal>
  );
}
