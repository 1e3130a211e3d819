import { Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailurePolicy } from '../lib/failure-policy';
import { doneText } from '../lib/notify';
import { truncateText } from '../lib/truncate';
import { ConfirmModal } from './confirm-modal';

interface DeleteModalProps {
  /** The area whose strings it shows: `<area>.deleteTitle` and `<area>.deleteQuestion` ({{name}}). */
  area: string;
  /** The item's name, for the question and the toasts. */
  name: string;
  /** The delete (or archive) call. */
  remove: () => Promise<unknown>;
  /** The area's delete failures (spec section 8): which keys toast with the name, what the rest do. */
  failure: FailurePolicy;
  onClose: () => void;
  /** The success toast; 'Successfully deleted <name>' unless given. */
  success?: string;
  /** The body, when the question alone does not say enough (schedules list the users and dates). */
  children?: ReactNode;
}

/**
 * The delete and archive dialog of every area (spec section 4): asks, runs the call, toasts, and
 * closes; the area passes its strings, its call and its failure keys. Rendered only while open.
 */
export function DeleteModal({ area, name, remove, failure, onClose, success, children }: DeleteModalProps) {
  const { t } = useTranslation();
  return (
    <ConfirmModal
      opened
      onClose={onClose}
      title={t(`${area}.deleteTitle`)}
      onConfirm={remove}
      success={success ?? doneText('deleted', name)}
      failure={failure}
      itemName={name}
      confirmLabel={t('modal.delete')}
      danger
    >
      {children ?? <Text>{t(`${area}.deleteQuestion`, { name: truncateText(name, LIMITS.truncate.modalName) })}</Text>}
    </ConfirmModal>
  );
}
