import { Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Status } from '@opsdeck/contract/statuses';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { isApiError } from '../../lib/api-client';
import { notifyDone, notifyErrorKey } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { useDeleteStatus } from './api';

/** Refusals the toast names as they are (spec section 8, Status); others read as the general error. */
const TOASTED = new Set(['ERROR_STATUS_DELETE', 'ERROR_STATUS_INACCESSIBLE', 'ERROR_STATUS_NOT_EXIST']);

interface DeleteStatusModalProps {
  onClose: () => void;
  status: Status;
}

/** Hard delete (spec section 4); a refusal closes the dialog with a toast naming the status. */
export function DeleteStatusModal({ onClose, status }: DeleteStatusModalProps) {
  const { t } = useTranslation();
  const remove = useDeleteStatus();
  const confirm = async () => {
    try {
      await remove.mutateAsync({ id: status.id, tenant: status.tenantId });
      notifyDone('deleted', status.name);
    } catch (error) {
      const key = isApiError(error) && TOASTED.has(error.key) ? error.key : 'ERROR_GENERAL_INTERNAL';
      notifyErrorKey(key, status.name);
    }
  };
  return (
    <ConfirmModal
      opened
      onClose={onClose}
      title={t('statuses.deleteTitle')}
      onConfirm={confirm}
      confirmLabel={t('statuses.delete')}
      danger
    >
      <Text>{t('statuses.deleteQuestion', { name: truncateText(status.name, LIMITS.truncate.modalName) })}</Text>
    </ConfirmModal>
  );
}
