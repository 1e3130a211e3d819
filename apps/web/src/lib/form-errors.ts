import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { isApiError } from './api-client';

export interface ErrorPlacement<T extends FieldValues> {
  /** API field name → form field where they differ (the API's `u` is the form's `email`). */
  fields?: Partial<Record<string, Path<T>>>;
  /** Error key → form field, for keys that belong on a field even without a `fields` entry. */
  keys?: Partial<Record<string, Path<T>>>;
}

/**
 * Where a failed call's keys belong: `[form field, key]` pairs, and the key left for a general
 * message under the form or in a toast (null when the fields carry the failure). An API field
 * with the same name as one of `formFields` needs no mapping.
 */
export function placeApiError<T extends FieldValues>(
  error: unknown,
  formFields: ReadonlySet<string>,
  placement: ErrorPlacement<T> = {},
): { fields: [Path<T>, string][]; general: string | null } {
  if (!isApiError(error)) return { fields: [], general: 'ERROR_GENERAL_INTERNAL' };
  const fieldFor = (apiName: string): Path<T> | undefined =>
    placement.fields?.[apiName] ?? (formFields.has(apiName) ? (apiName as Path<T>) : undefined);

  const fields: [Path<T>, string][] = [];
  for (const [apiName, key] of Object.entries(error.fields)) {
    const field = fieldFor(apiName);
    if (field) fields.push([field, key]);
  }
  const keyField = placement.keys?.[error.key];
  if (fields.length === 0 && keyField) fields.push([keyField, error.key]);
  return { fields, general: fields.length > 0 ? null : error.errorKey };
}

/**
 * Puts a failed call's keys on the form's fields (react-hook-form setError); the message stored is
 * the key, which the field translates. Returns the key left for a general message, or null when
 * the fields carry the failure.
 */
export function applyApiError<T extends FieldValues>(
  error: unknown,
  form: Pick<UseFormReturn<T, unknown, unknown>, 'setError' | 'getValues'>,
  placement: ErrorPlacement<T> = {},
): string | null {
  const { fields, general } = placeApiError(error, new Set(Object.keys(form.getValues() ?? {})), placement);
  for (const [field, key] of fields) form.setError(field, { type: 'server', message: key });
  return general;
}
