import { Alert, Button, type ButtonProps } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { MouseEvent, ReactNode } from 'react';
import { errorText } from '../lib/i18n';
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

/** Keeps the focus in the field being typed in when the button is pressed (see SubmitButton). */
const keepFocus = (event: MouseEvent) => event.preventDefault();

/**
 * Spec section 4: submit is disabled while any field has an error or a request is in flight, and
 * stays blocked for the re-enable delay after a success (the lock's job).
 *
 * Pressing the button must not blur the field first: the blur would validate that field alone,
 * disable the button before the click lands, and the submit that checks every field would never
 * run (login with both fields empty flagged only the e-mail; the role form never flagged Company).
 */
export function SubmitButton({
  lock,
  hasErrors,
  children,
  ...props
}: ButtonProps & { lock: SubmitLock; hasErrors: boolean; children: ReactNode }) {
  return (
    <Button type="submit" loading={lock.pending} disabled={hasErrors || lock.locked} onMouseDown={keepFocus} {...props}>
      {children}
    </Button>
  );
}
