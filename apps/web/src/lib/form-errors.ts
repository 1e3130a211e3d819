import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { isApiError } from './api-client';

export interface ErrorPlacement<T extends FieldValues> {
  /** API field name → form field where they differ (the API's `u` is the form's `email`). */
  fields?: Partial<Record<string, Path<T>>>;
  /** Error key → form field, for keys that belong on a field even without a `fields` entry. */
  keys?: Partial<Record<string, Path<T>>>;
}

/**
 * Puts a failed call's keys on the form's fields (react-hook-form setError); the message stored is
 * the key, which the field translates. An API field with the same name as a form field needs no
 * mapping. Returns the key left for a general message under the form or in a toast, or null when
 * the fields carry the failure.
 */
export function applyApiError<T extends FieldValues>(
  error: unknown,
  form: Pick<UseFormReturn<T, unknown, unknown>, 'setError' | 'getValues'>,
  placement: ErrorPlacement<T> = {},
): string | null {
  if (!isApiError(error)) return 'ERROR_GENERAL_INTERNAL';
  const formFields = new Set(Object.keys(form.getValues() ?? {}));
  const fieldFor = (apiName: string): Path<T> | undefined =>
    placement.fields?.[apiName] ?? (formFields.has(apiName) ? (apiName as Path<T>) : undefined);

  let placed = false;
  for (const [apiName, key] of Object.entries(error.fields)) {
    const field = fieldFor(apiName);
    if (field) {
      form.setError(field, { type: 'server', message: key });
      placed = true;
    }
  }
  const keyField = placement.keys?.[error.key];
  if (!placed && keyField) {
    form.setError(keyField, { type: 'server', message: error.key });
    placed = true;
  }
  return placed ? null : error.errorKey;
}
