import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { setUnauthorizedHandler } from '../../lib/api-client';
import { clearSession, getAuthToken, setAuthToken, subscribeSession, useAuthToken } from '../../lib/session';
import { profileQueryOptions } from '../../resources/profile';
import { getLogout, postLogin } from './api';

export type Session =
  | { status: 'anonymous' }
  | { status: 'loading' }
  | { status: 'failed'; retry: () => void }
  | { status: 'ready'; profile: CurrentUserProfile };

/**
 * Wires the session to the query cache once, at start: a 401 from any call but login ends the
 * session, and whenever the token changes (sign-in, sign-out, another tab) nothing cached for the
 * previous user survives.
 */
export function installSessionHandling(queryClient: QueryClient): () => void {
  setUnauthorizedHandler(() => clearSession());
  let lastToken = getAuthToken();
  return subscribeSession(() => {
    const token = getAuthToken();
    if (token === lastToken) return;
    lastToken = token;
    queryClient.removeQueries();
  });
}

/** The session as the routes see it: no token, its profile loading, failed, or ready. */
export function useSession(): Session {
  const token = useAuthToken();
  const profile = useQuery({ ...profileQueryOptions(), enabled: token !== null });
  if (token === null) return { status: 'anonymous' };
  if (profile.data) return { status: 'ready', profile: profile.data };
  if (profile.isError) return { status: 'failed', retry: () => void profile.refetch() };
  return { status: 'loading' };
}

/**
 * Login stores the token, then loads the profile; the mutation stays pending (the loading flag)
 * until the profile arrives or fails. Any failure leaves no token behind.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: { username: string; password: string }) => {
      const { token } = await postLogin(credentials);
      setAuthToken(token);
      try {
        return await queryClient.fetchQuery(profileQueryOptions());
      } catch (error) {
        clearSession();
        throw error;
      }
    },
  });
}

/** Logout tells the server (best effort), then forgets the token, tenant, profile and cache. */
export function useSignOut() {
  return useMutation({
    mutationFn: async () => {
      try {
        await getLogout();
      } catch {
        // The session ends locally either way; a dead server must not keep anyone signed in.
      } finally {
        clearSession();
      }
    },
  });
}
