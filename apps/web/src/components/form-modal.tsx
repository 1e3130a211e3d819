import { Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { type DefaultValues, type FieldValues, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyApiError, type ErrorPlacement } from '../lib/form-errors';
import { useSubmitLock } from '../lib/use-submit-lock';
import { FormErrorAlert, SubmitButton } from './form-parts';

interface FormModalProps<TValues extends FieldValues, TOutput> {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** A react-hook-form form, usually with zodResolver over the contract's schema. */
  form: UseFormReturn<TValues, unknown, TOutput>;
  /** Resolving closes the modal. A rejection's field keys go on the fields, the rest under the form. */
  onSubmit: (values: TOutput) => Promise<unknown>;
  errorPlacement?: ErrorPlacement<TValues>;
  submitLabel?: string;
  children: ReactNode;
}

/**
 * The create and edit dialogs (spec section 4): submit is disabled while a field has an error or
 * a request is in flight, and re-enables about 1000 ms after success.
 */
export function FormModal<TValues extends FieldValues, TOutput>({
  opened,
  onClose,
  title,
  form,
  onSubmit,
  errorPlacement,
  submitLabel,
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
      await lock.run(() => onSubmit(values));
      onClose();
    } catch (error) {
      setGeneralKey(applyApiError(error, form, errorPlacement));
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': t('modal.close') }}>
      <form onSubmit={submit} noValidate>
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

interface ModalFormOptions<TValues extends FieldValues, TOutput> {
  opened: boolean;
  /** The values the dialog opens with: the record's, or a new record's. */
  initial: TValues;
  resolver: Resolver<TValues, unknown, TOutput>;
}

/** A dialog's form: checked once a field is touched, and reset to `initial` whenever the dialog opens. */
export function useModalForm<TValues extends FieldValues, TOutput>({
  opened,
  initial,
  resolver,
}: ModalFormOptions<TValues, TOutput>): UseFormReturn<TValues, unknown, TOutput> {
  const form = useForm<TValues, unknown, TOutput>({
    resolver,
    mode: 'onTouched',
    defaultValues: initial as DefaultValues<TValues>,
  });
  useEffect(() => {
    if (opened) form.reset(initial);
  }, [opened, initial, form]);
  return form;
}
