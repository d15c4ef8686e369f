import { useQuery } from '@tanstack/react-query';
import { PERSONAL_WORKSPACE, useActiveWorkspace } from '../../../api/active-workspace';
import { usePaintFirst } from '../../../offline/paint-first';
import { userDatabase } from '../../../offline/user-db';
import { useBootstrap } from '../../bootstrap/store';
import { workspaceCalls } from './calls';
import { workspaceKeys, workspaceListMeta } from './keys';
import type { Workspace, WorkspaceRole } from './types';
import { readWorkspaceList, writeWorkspaceList } from './workspace-cache';

export interface WorkspaceList {
  workspaces: Workspace[];
  /** Painted from the device's copy (the server has not answered in this visit). */
  fromCache: boolean;
  /** The server has answered in this visit: only then may a missing active workspace be reset. */
  confirmed: boolean;
  isLoading: boolean;
}

/** The user's workspaces (spec §7 GET me/workspaces), the personal one first; painted from IndexedDB first. */
export function useWorkspaces(): WorkspaceList {
  const { user } = useBootstrap();
  const db = user ? userDatabase(user.id) : null;
  const query = useQuery({
    queryKey: workspaceKeys.list,
    meta: workspaceListMeta,
    enabled: !!db,
    queryFn: async ({ signal }) => {
      const { workspaces } = await workspaceCalls.list(signal);
      if (db) await writeWorkspaceList(db, workspaces);
      return workspaces;
    },
  });
  const shown = usePaintFirst(() => (db ? readWorkspaceList(db) : undefined), [db], query.data);
  return {
    workspaces: shown.data ?? [],
    fromCache: shown.fromCache,
    // A list being refetched may predate a workspace just created or joined: only a settled answer may reset the active one.
    confirmed: query.isSuccess && !query.isPlaceholderData && !query.isFetching,
    isLoading: shown.missing && query.isFetching,
  };
}

/** The active workspace when it is not the personal one: the drive names it wherever it would say "Drive". */
export function useCurrentWorkspace(): Workspace | null {
  const activeId = useActiveWorkspace();
  const { workspaces } = useWorkspaces();
  if (activeId === PERSONAL_WORKSPACE) return null;
  return workspaces.find((w) => w.id === activeId && !w.default) ?? null;
}

/** One workspace with its member and invite rows. */
export function useWorkspace(id: number | null) {
  const { workspaces, isLoading } = useWorkspaces();
  // Only a workspace still in the user's list is asked for: one just left or deleted would answer 404.
  const listed = isLoading || workspaces.some((w) => w.id === id);
  return useQuery({
    queryKey: workspaceKeys.one(id ?? 0),
    enabled: id !== null && id !== 0 && listed,
    // Others join, leave and change roles meanwhile: each opening of the members dialog asks again (painting the last answer first).
    refetchOnMount: 'always',
    queryFn: async ({ signal }) => (await workspaceCalls.one(id ?? 0, signal)).workspace,
  });
}

export function useWorkspaceRoles(enabled = true) {
  return useQuery<WorkspaceRole[]>({
    queryKey: workspaceKeys.roles,
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => (await workspaceCalls.roles(signal)).workspaceRoles,
  });
}
