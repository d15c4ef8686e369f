import { atom, getDefaultStore, useAtomValue } from 'jotai';
import { readCookie, writeCookie } from './cookies';

// The active workspace (spec §4 "Active workspace"): one piece of state, read
// from the activeWorkspaceId cookie once and written back to it (7 days) so
// the server and the next visit see it too. The client's requests, the drive's
// query keys and its IndexedDB copy all read it here.
export const ACTIVE_WORKSPACE_COOKIE = 'activeWorkspaceId';
export const ACTIVE_WORKSPACE_DAYS = 7;
/** The personal workspace ('Default', shown as 'Private'). */
export const PERSONAL_WORKSPACE = 0;

function fromCookie(): number {
  if (typeof document === 'undefined') return PERSONAL_WORKSPACE;
  const raw = readCookie(ACTIVE_WORKSPACE_COOKIE);
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : PERSONAL_WORKSPACE;
}

export const activeWorkspaceAtom = atom<number>(fromCookie());

/** For code outside React (the API client). */
export function activeWorkspaceId(): number {
  return getDefaultStore().get(activeWorkspaceAtom);
}

/** Switches workspace: the cookie and every reader of the state at once. */
export function setActiveWorkspace(id: number): void {
  writeCookie(ACTIVE_WORKSPACE_COOKIE, String(id), ACTIVE_WORKSPACE_DAYS);
  getDefaultStore().set(activeWorkspaceAtom, id);
}

export function useActiveWorkspace(): number {
  return useAtomValue(activeWorkspaceAtom, { store: getDefaultStore() });
}

/** The query parameter a request carries: none in the personal workspace, as the server's default. */
export const workspaceParam = (id: number): number | null => (id === PERSONAL_WORKSPACE ? null : id);
