import { LIMITS } from '@opsdeck/contract/limits';
import { useCallback, useEffect, useRef, useState } from 'react';

type Phase = 'idle' | 'pending' | 'cooling';

export interface SubmitLock {
  /** A request is in flight. */
  pending: boolean;
  /** Submitting is blocked: in flight, or within the re-enable delay after a success. */
  locked: boolean;
  /**
   * Runs `action` unless one is running or has just succeeded; resolves with its result, or with
   * undefined when the call was blocked as a double submission. A failure unlocks at once.
   */
  run: <T>(action: () => Promise<T>) => Promise<T | undefined>;
}

/**
 * Spec section 4: submit buttons block double submission and re-enable about 1000 ms after
 * success. A ref does the blocking because two clicks in one frame both see the old state.
 */
export function useSubmitLock(reenableMs: number = LIMITS.submitReenableMs): SubmitLock {
  const [phase, setPhase] = useState<Phase>('idle');
  const busy = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const run = useCallback(
    async <T>(action: () => Promise<T>): Promise<T | undefined> => {
      if (busy.current) return undefined;
      busy.current = true;
      setPhase('pending');
      try {
        const result = await action();
        setPhase('cooling');
        timer.current = setTimeout(() => {
          busy.current = false;
          setPhase('idle');
        }, reenableMs);
        return result;
      } catch (error) {
        busy.current = false;
        setPhase('idle');
        throw error;
      }
    },
    [reenableMs],
  );

  return { pending: phase === 'pending', locked: phase !== 'idle', run };
}
