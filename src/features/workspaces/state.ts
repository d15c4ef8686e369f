import { atom } from 'jotai';
import type { Workspace } from './api/types';

// Which workspace dialog is open (spec §2 "Workspace selector and dialogs").
// The selector's popover closes when one opens, so the dialogs live outside it.
export type WorkspaceDialog =
  | { kind: 'create' }
  | { kind: 'members'; workspace: Workspace }
  | { kind: 'rename'; workspace: Workspace }
  | { kind: 'delete'; workspace: Workspace }
  | { kind: 'leave'; workspace: Workspace };

export const workspaceDialogAtom = atom<WorkspaceDialog | null>(null);
