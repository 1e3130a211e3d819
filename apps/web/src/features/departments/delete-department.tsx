import { Text } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { LIMITS } from '@opsdeck/contract/limits';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { isApiError } from '../../lib/api-client';
import { notifyDone, notifyErrorKey } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { useDeleteDepartment } from './api';

/** Keys of a refused delete that the toast names as they are (spec section 8, Department). */
const TOASTED = new Set([
  'ERROR_DEPARTMENT_DELETE_HAS_CHILDREN',
  'ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES',
  'ERROR_DEPARTMENT_NOT_EXIST',
]);

interface DeleteDepartmentModalProps {
  opened: boolean;
  onClose: () => void;
  department: Department;
}

/**
 * Hard delete (spec section 4). A refusal (children, statuses) or any other failure closes the
 * dialog with a toast naming the department; other failures read as the general error.
 */
export function DeleteDepartmentModal({ opened, onClose, department }: DeleteDepartmentModalProps) {
  const { t } = useTranslation();
  const remove = useDeleteDepartment();
  const confirm = async () => {
    try {
      await remove.mutateAsync(department.id);
      notifyDone('deleted', department.name);
    } catch (error) {
      const key = isApiError(error) && TOASTED.has(error.key) ? error.key : 'ERROR_GENERAL_INTERNAL';
      notifyErrorKey(key, department.name);
    }
  };
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title={t('departments.deleteTitle')}
      onConfirm={confirm}
      confirmLabel={t('departments.delete')}
      danger
    >
      <Text>{t('departments.deleteQuestion', { name: truncateText(department.name, LIMITS.truncate.modalName) })}</Text>
    </ConfirmModal>
  );
}
