import { useCallback, useState } from 'react';
import { STORAGE_KEYS } from '../lib/session';

/** What the sidebar remembers across reloads: whether it is shown on a wide screen, and the groups closed. */
export interface SidebarMemory {
  pinned: boolean;
  closedGroups: string[];
}

export const DEFAULT_SIDEBAR: SidebarMemory = { pinned: true, closedGroups: [] };

/** The stored state, or the default for anything missing or malformed (an older console, a hand edit). */
export function parseSidebarMemory(raw: string | null): SidebarMemory {
  try {
    const value: unknown = raw === null ? null : JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return DEFAULT_SIDEBAR;
    const { pinned, closedGroups } = value as Record<string, unknown>;
    return {
      pinned: typeof pinned === 'boolean' ? pinned : DEFAULT_SIDEBAR.pinned,
      closedGroups: Array.isArray(closedGroups) ? closedGroups.filter((item) => typeof item === 'string') : [],
    };
  } catch {
    return DEFAULT_SIDEBAR;
  }
}

function read(): SidebarMemory {
  try {
    return parseSidebarMemory(window.localStorage.getItem(STORAGE_KEYS.sidebar));
  } catch {
    return DEFAULT_SIDEBAR;
  }
}

function write(memory: SidebarMemory): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.sidebar, JSON.stringify(memory));
  } catch {
    // Storage unavailable (private mode, quota): the sidebar still works, it just forgets.
  }
}

/**
 * The sidebar's state, read at mount and written back on every change. A change starts from what
 * is stored, so the layout (pinned) and the sidebar (groups) never overwrite each other's part.
 */
export function useSidebarMemory() {
  const [memory, setMemory] = useState(read);
  const update = useCallback((change: (current: SidebarMemory) => SidebarMemory) => {
    const next = change(read());
    write(next);
    setMemory(next);
  }, []);
  const setPinned = useCallback((pinned: boolean) => update((current) => ({ ...current, pinned })), [update]);
  const setGroupOpened = useCallback(
    (group: string, opened: boolean) =>
      update((current) => ({
        ...current,
        closedGroups: opened
          ? current.closedGroups.filter((item) => item !== group)
          : [...current.closedGroups.filter((item) => item !== group), group],
      })),
    [update],
  );
  return { ...memory, setPinned, setGroupOpened };
}
