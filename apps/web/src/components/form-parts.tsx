import {
  PasswordInput,
  type PasswordInputProps,
  Select,
  type SelectProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import {
  type Control,
  type FieldError,
  type FieldPathByValue,
  type FieldValues,
  get,
  type Path,
  type RegisterOptions,
  type UseFormReturn,
  useController,
  useFormState,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/i18n';
import { truncateText } from '../lib/truncate';
import { PasswordStrengthHint, type StrengthOptions } from './password-strength';

// A form's alert and submit button live apart, so that the login form takes them without the form fields' libraries.
export { FormErrorAlert, SubmitButton } from './form-actions';

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

type Named = { id: number; name: string };

/**
 * The choices of a select: the loaded list, plus the record's current choice when the list lacks
 * it (an edit of a status in a department the editor no longer manages still shows that department).
 */
export function withCurrent(list: readonly Named[], current?: Named): Named[] {
  const choices = list.map((item) => ({ id: item.id, name: item.name }));
  if (current && !choices.some((item) => item.id === current.id)) choices.unshift(current);
  return choices;
}

/** Select options of named records by id, the names cut for the dropdown (spec section 8). */
export function nameOptions(items: readonly Named[]) {
  return items.map((item) => ({
    value: String(item.id),
    label: truncateText(item.name, LIMITS.truncate.dropdownName),
  }));
}

type InputFieldProps<TValues extends FieldValues, TOutput> = {
  form: UseFormReturn<TValues, unknown, TOutput>;
  name: Path<TValues>;
  /** Options of the registration (an onChange that re-checks a dependent field). */
  rules?: RegisterOptions<TValues, Path<TValues>>;
  /** An error key shown while the field has none of its own (a check the server answers: e-mail taken). */
  otherError?: string;
};

/** The field's error key, else `otherError`, as text; the field follows its own error state. */
function useFieldError<TValues extends FieldValues, TOutput>(
  form: UseFormReturn<TValues, unknown, TOutput>,
  name: Path<TValues>,
  otherError?: string,
) {
  const { errors } = useFormState({ control: form.control, name });
  return errorText((get(errors, name) as FieldError | undefined)?.message ?? otherError);
}

/** A text input registered on a form field, showing the field's error key as text. */
export function TextField<TValues extends FieldValues, TOutput>({
  form,
  name,
  rules,
  otherError,
  ...props
}: InputFieldProps<TValues, TOutput> & Omit<TextInputProps, 'form' | 'name' | 'error'>) {
  const error = useFieldError(form, name, otherError);
  return <TextInput {...props} error={error} {...form.register(name, rules)} />;
}

/**
 * A password input registered on a form field, showing the field's error key as text. A new
 * password (`strength`) shows the strength hint under it while it is typed (docs/security.md).
 */
export function PasswordField<TValues extends FieldValues, TOutput>({
  form,
  name,
  rules,
  otherError,
  strength,
  ...props
}: InputFieldProps<TValues, TOutput> &
  Omit<PasswordInputProps, 'form' | 'name' | 'error'> & { strength?: StrengthOptions }) {
  const error = useFieldError(form, name, otherError);
  const input = <PasswordInput {...props} error={error} {...form.register(name, rules)} />;
  if (!strength) return input;
  return (
    <div>
      {input}
      <WatchedStrengthHint form={form} name={name} options={strength} />
    </div>
  );
}

function WatchedStrengthHint<TValues extends FieldValues, TOutput>({
  form,
  name,
  options,
}: {
  form: UseFormReturn<TValues, unknown, TOutput>;
  name: Path<TValues>;
  options: StrengthOptions;
}) {
  const value: unknown = useWatch({ control: form.control, name });
  return <PasswordStrengthHint password={typeof value === 'string' ? value : ''} options={options} />;
}

/** A multi-line text input registered on a form field, showing the field's error key as text. */
export function TextareaField<TValues extends FieldValues, TOutput>({
  form,
  name,
  rules,
  otherError,
  ...props
}: InputFieldProps<TValues, TOutput> & Omit<TextareaProps, 'form' | 'name' | 'error'>) {
  const error = useFieldError(form, name, otherError);
  return <Textarea {...props} error={error} {...form.register(name, rules)} />;
}
