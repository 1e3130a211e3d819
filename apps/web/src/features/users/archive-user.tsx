import { Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { User } from '@opsdeck/contract/users';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { notifyDone, notifyError } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { useArchiveUser } from './api';

interface ArchiveUserModalProps {
  opened: boolean;
  onClose: () => void;
  user: User;
}

/**
 * Delete is an archive (spec section 4). A refusal (department head, company head, oneself) or any
 * other failure shows the server's message in a toast and closes the dialog (spec section 8).
 */
export function ArchiveUserModal({ opened, onClose, user }: ArchiveUserModalProps) {
  const { t } = useTranslation();
  const archive = useArchiveUser();
  const confirm = async () => {
    try {
      await archive.mutateAsync(user.id);
      notifyDone('deleted', user.completeName);
    } catch (error) {
      notifyError(error, user.completeName);
    }
  };
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title={t('users.deleteTitle')}
      onConfirm={confirm}
      confirmLabel={t('users.delete')}
      danger
    >
      <Text>{t('users.deleteQuestion', { name: truncateText(user.completeName, LIMITS.truncate.modalName) })}</Text>
    </ConfirmModal>
  );
}
