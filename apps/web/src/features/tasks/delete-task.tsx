import { Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Task } from '@opsdeck/contract/tasks';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { isApiError } from '../../lib/api-client';
import { notifyDone, notifyErrorKey } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { useDeleteTask } from './api';

const TOASTED = new Set(['ERROR_TASK_INACCESSIBLE', 'ERROR_TASK_NOT_EXIST']);

/** Hard delete (spec section 4); a refusal closes the dialog with a toast naming the task. */
export function DeleteTaskModal({ onClose, task }: { onClose: () => void; task: Task }) {
  const { t } = useTranslation();
  const remove = useDeleteTask();
  const confirm = async () => {
    try {
      await remove.mutateAsync({ id: task.id, tenant: task.tenantId });
      notifyDone('deleted', task.name);
    } catch (error) {
      notifyErrorKey(isApiError(error) && TOASTED.has(error.key) ? error.key : 'ERROR_GENERAL_INTERNAL', task.name);
    }
  };
  return (
    <ConfirmModal
      opened
      onClose={onClose}
      title={t('tasks.deleteTitle')}
      onConfirm={confirm}
      confirmLabel={t('tasks.delete')}
      danger
    >
      <Text>{t('tasks.deleteQuestion', { name: truncateText(task.name, LIMITS.truncate.modalName) })}</Text>
    </ConfirmModal>
  );
}
