import { notifications } from '@mantine/notifications';
import { LIMITS } from '@opsdeck/contract/limits';
import { isApiError } from './api-client';
import { errorText, i18n } from './i18n';
import { truncateText } from './truncate';

export type Verb = 'added' | 'updated' | 'deleted';

/** The success text naming the item, e.g. 'Successfully added Acme' (names cut at 50, spec section 8). */
export function doneText(verb: Verb, name: string): string {
  return i18n.t(`toast.${verb}`, { name: truncateText(name, LIMITS.truncate.toastName) });
}

export function notifyDone(verb: Verb, name: string): void {
  notifySuccess(doneText(verb, name));
}

/** Every toast: closes after 5000 ms (spec section 8), with a close button that says what it does. */
function show(color: 'teal' | 'red', title: string, message: string): void {
  notifications.show({
    color,
    title,
    message,
    autoClose: LIMITS.toastCloseMs,
    closeButtonProps: { 'aria-label': i18n.t('toast.close') },
  });
}

export function notifySuccess(message: string): void {
  show('teal', i18n.t('toast.success'), message);
}

/** An error toast from a catalogue key, with an optional item name appended. */
export function notifyErrorKey(key: string, name?: string): void {
  const text = errorText(key) ?? key;
  const message = name ? `${text} (${truncateText(name, LIMITS.truncate.toastName)})` : text;
  show('red', i18n.t('toast.error'), message);
}

/** An error toast for whatever a call threw: its catalogue key, or the general error. */
export function notifyError(error: unknown, name?: string): void {
  if (!isApiError(error)) console.error(error);
  notifyErrorKey(isApiError(error) ? error.errorKey : 'ERROR_GENERAL_INTERNAL', name);
}
