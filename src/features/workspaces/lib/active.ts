import { PERSONAL_WORKSPACE } from '../../../api/active-workspace';
import type { Workspace } from '../api/types';

// Spec §4 "Active workspace": leaving, removal or deletion of the active
// workspace, or its absence from the list, switches back to workspace 0.

/** The workspace to keep active given the server's list; only a list the server confirmed may reset it. */
export function reconcileActive(activeId: number, workspaces: readonly Pick<Workspace, 'id'>[], confirmed: boolean): number {
  if (activeId === PERSONAL_WORKSPACE || !confirmed) return activeId;
  return workspaces.some((w) => w.id === activeId) ? activeId : PERSONAL_WORKSPACE;
}

/** After a workspace is gone for this user (left, removed, deleted): the active one stays unless it was that one. */
export function afterLosing(activeId: number, lostId: number): number {
  return activeId === lostId ? PERSONAL_WORKSPACE : activeId;
}
