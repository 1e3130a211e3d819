import { useEffect, useState } from 'react';
import { isApiError } from '../../lib/api-client';
import { postResetKeyCheck } from './api';

export type ResetKeyState = 'checking' | 'usable' | 'invalid';

/**
 * Asks the server once, when the reset panel opens, whether the link's key still works, so a used
 * or expired link says so before anything is typed. Only a definite answer hides the form: if the
 * check itself fails (network, throttled), the form shows and its submit has the last word.
 */
export function useResetKeyState(resetPasswordKey: string): ResetKeyState {
  const [state, setState] = useState<ResetKeyState>('checking');
  useEffect(() => {
    let current = true;
    setState('checking');
    postResetKeyCheck({ resetPasswordKey }).then(
      ({ valid }) => current && setState(valid ? 'usable' : 'invalid'),
      (error: unknown) => current && setState(isApiError(error) && error.status === 400 ? 'invalid' : 'usable'),
    );
    return () => {
      current = false;
    };
  }, [resetPasswordKey]);
  return state;
}
