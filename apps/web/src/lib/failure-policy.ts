import { isApiError } from './api-client';

/**
 * What a dialog does with a failed save or delete (spec section 8, per area). Field keys always go
 * on their fields first (the form's placement); this decides the rest.
 */
export interface FailurePolicy {
  /** Keys shown as they are in a toast naming the item; the dialog closes. */
  toast?: readonly string[];
  /**
   * Any other key: 'form' shows it under the form and keeps the dialog (and what was typed) open;
   * 'general' closes with an ERROR_GENERAL_INTERNAL toast; 'server' closes with the server's own
   * key in a toast (users: "shows the server's message").
   */
  otherwise: 'form' | 'general' | 'server';
  /** The key 'general' toasts: ERROR_GENERAL_INTERNAL unless the area names its own. */
  general?: string;
}

export type FailureOutcome = { show: 'form' | 'toast'; key: string };

/** Spec section 8 for one failure: where its key is shown, and so whether the dialog closes. */
export function failureOutcome(error: unknown, policy: FailurePolicy): FailureOutcome {
  // Not an answer of the API (a bug, a broken response): logged, and read as the general error.
  if (!isApiError(error)) console.error(error);
  const key = isApiError(error) ? error.errorKey : 'ERROR_GENERAL_INTERNAL';
  if (isApiError(error) && policy.toast?.includes(error.key)) return { show: 'toast', key };
  switch (policy.otherwise) {
    case 'form':
      return { show: 'form', key };
    case 'general':
      return { show: 'toast', key: policy.general ?? 'ERROR_GENERAL_INTERNAL' };
    case 'server':
      return { show: 'toast', key };
  }
}

/** The policy of a dialog that shows every failure under its form (the default). */
export const SHOW_ON_FORM: FailurePolicy = { otherwise: 'form' };
