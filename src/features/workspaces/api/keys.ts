import { IN_INDEXEDDB } from '../../../offline/persister';

// The workspaces' query keys, the one place they are defined. The list and
// the roles are the user's whichever workspace is active; one workspace with
// its members is keyed by its own id.
export const workspaceKeys = {
  all: ['workspaces'] as const,
  list: ['workspaces', 'list'] as const,
  one: (id: number) => ['workspaces', 'one', id] as const,
  roles: ['workspaces', 'roles'] as const,
};

/** The list lives in the per-user IndexedDB database (offline/user-db.ts), not in localStorage. */
export const workspaceListMeta = IN_INDEXEDDB;
