import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { failureOutcome } from './failure-policy';

const refusal = (key: string) => new ApiError(409, key, key);

describe('failureOutcome (spec section 8)', () => {
  it('toasts the listed keys as they are, whatever the rest do', () => {
    for (const otherwise of ['form', 'general', 'server'] as const) {
      expect(failureOutcome(refusal('ERROR_STATUS_DELETE'), { toast: ['ERROR_STATUS_DELETE'], otherwise })).toEqual({
        show: 'toast',
        key: 'ERROR_STATUS_DELETE',
      });
    }
  });

  it('sends the rest under the form, to a general toast, or to a toast of their own key', () => {
    const error = refusal('ERROR_DEPARTMENT_NAME_DUPLICATE');
    expect(failureOutcome(error, { otherwise: 'form' })).toEqual({
      show: 'form',
      key: 'ERROR_DEPARTMENT_NAME_DUPLICATE',
    });
    expect(failureOutcome(error, { otherwise: 'general' })).toEqual({ show: 'toast', key: 'ERROR_GENERAL_INTERNAL' });
    expect(failureOutcome(error, { otherwise: 'server' })).toEqual({
      show: 'toast',
      key: 'ERROR_DEPARTMENT_NAME_DUPLICATE',
    });
  });

  it('logs what is not an API answer and reads it as the general error', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(failureOutcome(new TypeError('bug'), { otherwise: 'server' })).toEqual({
      show: 'toast',
      key: 'ERROR_GENERAL_INTERNAL',
    });
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});
