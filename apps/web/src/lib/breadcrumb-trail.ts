import { LIMITS } from '@opsdeck/contract/limits';
import { useEffect, useSyncExternalStore } from 'react';
import { CRUMB_PARENTS, matchPathKey, PATHS } from './paths';

export interface Crumb {
  path: string;
  /** i18n key of the page's name; a page may replace it with a real name (see useCrumbName). */
  label: string;
}

/** Longest trail kept in memory; only the last few are ever shown. */
const MAX_TRAIL = 50;

/** The crumb of a path, preceded by its parent's (Company > Keys), or [] for pages without one. */
export function crumbsFor(pathname: string): Crumb[] {
  const match = matchPathKey(pathname);
  if (!match) return [];
  const entry = PATHS[match.key];
  if (!entry.crumb) return [];
  const own: Crumb = { path: pathname, label: entry.label };
  const parentKey = CRUMB_PARENTS[match.key];
  if (!parentKey) return [own];
  const parent = PATHS[parentKey];
  const parentPath = (parent.build as (params: Record<string, string>) => string)(match.params);
  return [{ path: parentPath, label: parent.label }, own];
}

/**
 * The trail after visiting `pathname`: going to a page already in the trail cuts back to it (that
 * is how the ellipsis and the crumbs jump back); a new page is added after its parent.
 */
export function advanceTrail(trail: readonly Crumb[], pathname: string): Crumb[] {
  let next = [...trail];
  for (const crumb of crumbsFor(pathname)) {
    const at = next.findIndex((existing) => existing.path === crumb.path);
    next = at >= 0 ? next.slice(0, at + 1) : [...next, crumb];
  }
  return next.slice(-MAX_TRAIL);
}

export interface VisibleTrail {
  /** Where the ellipsis leads: the last crumb hidden before the visible ones, or null. */
  jumpBack: Crumb | null;
  shown: Crumb[];
}

/** Spec: the trail shows at most the last 5 entries, with an ellipsis that jumps back. */
export function visibleTrail(trail: readonly Crumb[], max: number = LIMITS.breadcrumbEntries): VisibleTrail {
  if (trail.length <= max) return { jumpBack: null, shown: [...trail] };
  return { jumpBack: trail[trail.length - max - 1] ?? null, shown: trail.slice(-max) };
}

// Names pages give their crumbs once they know them (a company's name instead of 'Company').
const names = new Map<string, string>();
const listeners = new Set<() => void>();
let version = 0;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setCrumbName(path: string, name: string | null): void {
  if (name === null) names.delete(path);
  else names.set(path, name);
  version += 1;
  for (const listener of listeners) listener();
}

export function crumbName(path: string): string | undefined {
  return names.get(path);
}

/** Re-renders when a page names a crumb. */
export function useCrumbNames(): number {
  return useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
}

/** A page names its own crumb, e.g. useCrumbName(location.pathname, company?.name). */
export function useCrumbName(path: string, name: string | undefined): void {
  useEffect(() => {
    if (name) setCrumbName(path, name);
  }, [path, name]);
}
