import { Alert, Button, type ButtonProps, Select, type SelectProps } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/i18n';
import { truncateText } from '../lib/truncate';
import type { SubmitLock } from '../lib/use-submit-lock';

/** The error of a form that belongs to no field (spec section 8: "shown under the form"). */
export function FormErrorAlert({ errorKey }: { errorKey: string | null }) {
  if (!errorKey) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {errorText(errorKey)}
    </Alert>
  );
}

/**
 * Spec section 4: submit is disabled while any field has an error or a request is in flight, and
 * stays blocked for the re-enable delay after a success (the lock's job).
 */
export function SubmitButton({
  lock,
  hasErrors,
  children,
  ...props
}: ButtonProps & { lock: SubmitLock; hasErrors: boolean; children: ReactNode }) {
  return (
    <Button type="submit" loading={lock.pending} disabled={hasErrors || lock.locked} {...props}>
      {children}
    </Button>
  );
}

type SelectFieldProps<TValues extends FieldValues, TOutput> = Omit<
  SelectProps,
  'value' | 'onChange' | 'onBlur' | 'error'
> & {
  control: Control<TValues, unknown, TOutput>;
  /** A field holding the chosen option's value (an id as a string), or null. */
  name: FieldPathByValue<TValues, string | null>;
  /** Called after the field takes the new value. */
  onChange?: (value: string | null) => void;
};

/** A searchable Select bound to a form field, showing the field's error key as text. */
export function SelectField<TValues extends FieldValues, TOutput>({
  control,
  name,
  onChange,
  ...props
}: SelectFieldProps<TValues, TOutput>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <Select
      searchable
      nothingFoundMessage={t('table.empty')}
      {...props}
      value={field.value}
      onChange={(value) => {
        field.onChange(value);
        onChange?.(value);
      }}
      onBlur={field.onBlur}
      error={errorText(fieldState.error?.message)}
    />
  );
}

/** Select options of named records by id, the names cut for the dropdown (spec section 8). */
export function nameOptions(items: readonly { id: number; name: string }[]) {
  return items.map((item) => ({
    value: String(item.id),
    label: truncateText(item.name, LIMITS.truncate.dropdownName),
  }));
}
