import type { Ok } from '@opsdeck/contract/auth';
import type { CreateApiToken, CreatedApiToken } from '@opsdeck/contract/tokens';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { tokenKeys } from '../../resources/tokens';

const touched = [tokenKeys.all];

/** POST /api/token: the answer carries the token, shown once (CreatedTokenModal) and kept nowhere. */
export const useCreateToken = () =>
  useResourceMutation(
    (body: CreateApiToken) => apiRequest<CreatedApiToken>('/token', { method: 'POST', body }),
    touched,
  );

export const useRevokeToken = () =>
  useResourceMutation((id: number) => apiRequest<Ok>(`/token/${id}`, { method: 'DELETE' }), touched);

/** A token already gone toasts with its name and closes; anything else stays under the form. */
export const SAVE_TOKEN_FAILURE: FailurePolicy = { toast: [], otherwise: 'form' };
export const REVOKE_TOKEN_FAILURE: FailurePolicy = { toast: ['ERROR_API_TOKEN_NOT_EXIST'], otherwise: 'general' };
