import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { createContext, useContext } from 'react';

/**
 * The route guard provides the loaded profile to everything it renders, so pages under it never
 * see a half-signed-out state: when the session ends the guard redirects before they render again.
 */
export const ProfileContext = createContext<CurrentUserProfile | null>(null);

/** The signed-in user's profile; only for components rendered under the route guard. */
export function useProfile(): CurrentUserProfile {
  const profile = useContext(ProfileContext);
  if (!profile) throw new Error('useProfile needs the route guard above it, with a signed-in user');
  return profile;
}
