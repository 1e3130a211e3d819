import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import type { Authority } from '@opsdeck/contract/authorities';

/** What the console needs to know about the signed-in user to decide what to show. */
export interface Viewer {
  authorities: ReadonlySet<string>;
  companyId: number | null;
}

export function toViewer(profile: Pick<CurrentUserProfile, 'auths' | 'company'>): Viewer {
  return { authorities: new Set(profile.auths), companyId: profile.company?.id ?? null };
}

export function viewerOf(authorities: readonly string[], companyId: number | null = null): Viewer {
  return { authorities: new Set(authorities), companyId };
}

/** An empty list asks for nothing: anyone signed in qualifies (spec: a link with none always shows). */
export function holdsAny(viewer: Viewer, required: readonly Authority[]): boolean {
  return required.length === 0 || required.some((authority) => viewer.authorities.has(authority));
}

export function holds(viewer: Viewer, authority: Authority): boolean {
  return viewer.authorities.has(authority);
}

/** Spec section 6: ADMIN_ACCESS_LEVEL, or no company, makes a user an admin who can pick a company. */
export function isAdmin(viewer: Viewer): boolean {
  return viewer.companyId === null || viewer.authorities.has('ADMIN_ACCESS_LEVEL');
}
