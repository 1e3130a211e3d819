import { Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api-client';
import { useSubmitLock } from '../lib/use-submit-lock';
import { FormErrorAlert } from './form-parts';

interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Resolving closes the modal; throwing keeps it open with the error's message. A caller that
   * wants a toast and a closed modal instead catches, toasts and resolves. */
  onConfirm: () => Promise<unknown>;
  confirmLabel?: string;
  /** Red confirm button, for deletes and other losses. */
  danger?: boolean;
}

/** A yes/no question before an action (spec section 4: opens, closes on success or cancel). */
export function ConfirmModal({
  opened,
  onClose,
  title,
  children,
  onConfirm,
  confirmLabel,
  danger = false,
}: ConfirmModalProps) {
  const { t } = useTranslation();
  const lock = useSubmitLock();
  const [errorKey, setErrorKey] = useState<string | null>(null);

  const close = () => {
    if (lock.pending) return;
    setErrorKey(null);
    onClose();
  };

  const confirm = async () => {
    setErrorKey(null);
    try {
      await lock.run(onConfirm);
      onClose();
    } catch (error) {
      setErrorKey(isApiError(error) ? error.errorKey : 'ERROR_GENERAL_INTERNAL');
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': t('modal.close') }}>
      <Stack gap="md">
        <div>{children}</div>
        <FormErrorAlert errorKey={errorKey} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={lock.pending}>
            {t('modal.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={confirm} loading={lock.pending} disabled={lock.locked}>
            {confirmLabel ?? t('modal.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
