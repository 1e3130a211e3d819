import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { createContext, useContext, useMemo } from 'react';
import { toViewer, type Viewer } from './authorities';

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

/** The signed-in user as the authority checks see it (lib/authorities.ts). */
export function useViewer(): Viewer {
  const profile = useProfile();
  return useMemo(() => toViewer(profile), [profile]);
}
