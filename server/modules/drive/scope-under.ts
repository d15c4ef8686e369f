import type { FileEntryRow } from '../../db/types.js';
import { spaceOf, type Scope } from './repository.js';

/**
 * Where a new entry lives: inside a folder, the folder's space (so an upload
 * into someone else's folder is theirs, and charged to them); at the root,
 * the scope the call works in.
 */
export const scopeUnder = (parent: FileEntryRow | null, fallback: Scope): Scope =>
  parent ? spaceOf(parent) : { ownerId: fallback.ownerId, workspaceId: fallback.workspaceId };
