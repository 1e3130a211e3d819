import { Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FailurePolicy, failureOutcome, SHOW_ON_FORM } from '../lib/failure-policy';
import { notifyErrorKey, notifySuccess } from '../lib/notify';
import { useSubmitLock } from '../lib/use-submit-lock';
import { FormErrorAlert } from './form-parts';

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** The action; resolving closes the modal (after the `success` toast). */
  onConfirm: () => Promise<unknown>;
  /** The toast text of a success. */
  success?: string;
  /** Where a failure's key goes (spec section 8): under the question (the default) or a toast that closes. */
  failure?: FailurePolicy;
  /** The item a failure toast names. */
  itemName?: string;
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
  success,
  failure = SHOW_ON_FORM,
  itemName,
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
      const ran = await lock.run(async () => {
        await onConfirm();
        return true;
      });
      if (!ran) return;
      if (success) notifySuccess(success);
      onClose();
    } catch (error) {
      const outcome = failureOutcome(error, failure);
      if (outcome.show === 'form') return setErrorKey(outcome.key);
      notifyErrorKey(outcome.key, itemName);
      onClose();
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': t('modal.close') }}>
      <Stack gap="md">
        <div>{children}</div>
        <FormErrorAlert errorKey={errorKey} />
        <Group justify="flex-end" gap="sm">
          {/* Opens on Cancel, not the close button: the safe answer (WAI-ARIA APG, alert dialog). */}
          <Button variant="default" onClick={close} disabled={lock.pending} data-autofocus>
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
