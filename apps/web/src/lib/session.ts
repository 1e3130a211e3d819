import { useSyncExternalStore } from 'react';

/** Local storage keys; spec section 9 keeps the auth key and the tenant id in local storage. */
export const STORAGE_KEYS = {
  authToken: 'opsdeck.authToken',
  tenantId: 'opsdeck.tenantId',
  /** The sidebar's pinned state and closed groups (shell/sidebar-memory.ts); kept across sign-outs. */
  sidebar: 'opsdeck.sidebar',
  /** The columns hidden in the workflow table (spec section 9); kept across sign-outs. */
  workflowColumns: 'opsdeck.workflowColumns',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives only in memory.
  }
}

let token = read(STORAGE_KEYS.authToken);
let tenantId = read(STORAGE_KEYS.tenantId);

function emit(): void {
  for (const listener of listeners) listener();
}

export function getAuthToken(): string | null {
  return token;
}

export function setAuthToken(value: string | null): void {
  if (value === token) return;
  token = value;
  write(STORAGE_KEYS.authToken, value);
  emit();
}

export function getTenantId(): string | null {
  return tenantId;
}

/** The company an admin acts on; sent as X-Tenant-Id. */
export function setTenantId(value: string | null): void {
  if (value === tenantId) return;
  tenantId = value;
  write(STORAGE_KEYS.tenantId, value);
  emit();
}

export function clearSession(): void {
  setTenantId(null);
  setAuthToken(null);
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Signing out in one tab signs out the others: they see the storage event. */
export function syncSessionAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.authToken || event.key === null) {
      token = read(STORAGE_KEYS.authToken);
      emit();
    }
    if (event.key === STORAGE_KEYS.tenantId || event.key === null) {
      tenantId = read(STORAGE_KEYS.tenantId);
      emit();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribeSession, getAuthToken, getAuthToken);
}

export function useTenantId(): string | null {
  return useSyncExternalStore(subscribeSession, getTenantId, getTenantId);
}

/** Tests start each case from a known storage state. */
export function reloadSessionFromStorage(): void {
  token = read(STORAGE_KEYS.authToken);
  tenantId = read(STORAGE_KEYS.tenantId);
  emit();
}
