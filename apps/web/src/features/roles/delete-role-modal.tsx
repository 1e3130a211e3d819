import { Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Role } from '@opsdeck/contract/roles';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { isApiError } from '../../lib/api-client';
import { notifyDone, notifyErrorKey } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { useDeleteRole } from './api';

/** Spec section 8, Role: these come back as a toast naming the role; anything else is general. */
const TOAST_KEYS = new Set([
  'ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER',
  'ERROR_GENERAL_PROTECTED',
  'ERROR_ROLE_NOT_EXIST',
]);

export function DeleteRoleModal({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTranslation();
  const deleteRole = useDeleteRole();
  const name = role?.name ?? '';

  const confirm = async () => {
    if (!role) return;
    try {
      await deleteRole.mutateAsync(role.id);
      notifyDone('deleted', role.name);
    } catch (error) {
      // The dialog closes either way (spec section 8); the toast says why it was refused.
      notifyErrorKey(isApiError(error) && TOAST_KEYS.has(error.key) ? error.key : 'ERROR_GENERAL_INTERNAL', role.name);
    }
  };

  return (
    <ConfirmModal
      opened={role !== null}
      onClose={onClose}
      title={t('roles.deleteTitle')}
      onConfirm={confirm}
      confirmLabel={t('roles.deleteButton')}
      danger
    >
      <Text>{t('roles.deleteConfirm', { name: truncateText(name, LIMITS.truncate.modalName) })}</Text>
    </ConfirmModal>
  );
}
