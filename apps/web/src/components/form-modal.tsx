import { Button, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import { type ReactNode, useEffect, useEffectEvent, useState } from 'react';
import { type DefaultValues, type FieldValues, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type FailurePolicy, failureOutcome, SHOW_ON_FORM } from '../lib/failure-policy';
import { applyApiError, type ErrorPlacement } from '../lib/form-errors';
import { notifyErrorKey, notifySuccess } from '../lib/notify';
import { useSubmitLock } from '../lib/use-submit-lock';
import { FormErrorAlert, SubmitButton } from './form-parts';

interface FormModalProps<TValues extends FieldValues, TOutput> {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** A react-hook-form form, usually with zodResolver over the contract's schema. */
  form: UseFormReturn<TValues, unknown, TOutput>;
  /** The save; resolving closes the modal after the `success` toast. */
  onSubmit: (values: TOutput) => Promise<unknown>;
  /** The toast text of a success, from what was saved ('Successfully added <name>'); null for none. */
  success?: (values: TOutput) => string | null;
  /** Where a failure's field keys go; API fields of the form's own names need no entry. */
  errorPlacement?: ErrorPlacement<TValues>;
  /**
   * What a failure no field takes does (spec section 8): shown under the form with everything
   * typed kept (the default), or a toast naming `itemName` that closes the dialog.
   */
  failure?: FailurePolicy;
  itemName?: string;
  submitLabel?: string;
  /** Wider than Mantine's default for a form with a table under it. */
  size?: ModalProps['size'];
  children: ReactNode;
}

/**
 * The create and edit dialogs (spec section 4): submit is disabled while a field has an error or
 * a request is in flight, and re-enables about 1000 ms after success; success toasts and closes.
 */
export function FormModal<TValues extends FieldValues, TOutput>({
  opened,
  onClose,
  title,
  form,
  onSubmit,
  success,
  errorPlacement,
  failure = SHOW_ON_FORM,
  itemName,
  submitLabel,
  size,
  children,
}: FormModalProps<TValues, TOutput>) {
  const { t } = useTranslation();
  const lock = useSubmitLock();
  const [generalKey, setGeneralKey] = useState<string | null>(null);
  const hasFieldErrors = Object.keys(form.formState.errors).length > 0;

  const close = () => {
    if (lock.pending) return;
    setGeneralKey(null);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    setGeneralKey(null);
    try {
      const ran = await lock.run(async () => {
        await onSubmit(values);
        return true;
      });
      if (!ran) return;
      const text = success?.(values);
      if (text) notifySuccess(text);
      onClose();
    } catch (error) {
      // One way for every form: field keys on their fields, then the area's policy for the rest.
      if (applyApiError(error, form, errorPlacement) === null) return;
      const outcome = failureOutcome(error, failure);
      if (outcome.show === 'form') return setGeneralKey(outcome.key);
      notifyErrorKey(outcome.key, itemName);
      onClose();
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      size={size}
      centered
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <form onSubmit={submit} noValidate ref={markFirstField}>
        <Stack gap="md">
          {children}
          <FormErrorAlert errorKey={generalKey} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={lock.pending}>
              {t('modal.cancel')}
            </Button>
            <SubmitButton lock={lock} hasErrors={hasFieldErrors}>
              {submitLabel ?? t('modal.save')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Mantine's Modal focuses the first [data-autofocus] element, else its first focusable one, the
 * close button: a keyboard user's first space closed the dialog. Marking the form's first field
 * before the focus trap runs (it waits a tick) opens every form dialog on its first field, a
 * searchable picker included (pickers open their list when typed in, not on focus: lib/theme.ts).
 */
function markFirstField(form: HTMLFormElement | null) {
  if (!form || form.querySelector('[data-autofocus]')) return;
  const first = form.querySelector('input:not([type=hidden]):not(:disabled), textarea:not(:disabled)');
  first?.setAttribute('data-autofocus', '');
}

interface ModalFormOptions<TValues extends FieldValues, TOutput> {
  opened: boolean;
  /** The values the dialog opens with: the record's, or a new record's. */
  initial: TValues;
  resolver: Resolver<TValues, unknown, TOutput>;
  /** Runs with each reset, for state kept beside the form (a chosen file). */
  onReset?: () => void;
}

/** A dialog's form: checked once a field is touched, and reset to `initial` whenever the dialog opens. */
export function useModalForm<TValues extends FieldValues, TOutput>({
  opened,
  initial,
  resolver,
  onReset,
}: ModalFormOptions<TValues, TOutput>): UseFormReturn<TValues, unknown, TOutput> {
  const form = useForm<TValues, unknown, TOutput>({
    resolver,
    mode: 'onTouched',
    defaultValues: initial as DefaultValues<TValues>,
  });
  const reset = useEffectEvent(() => onReset?.());
  useEffect(() => {
    if (!opened) return;
    form.reset(initial);
    reset();
  }, [opened, initial, form]);
  return form;
}
