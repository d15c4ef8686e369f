import type { FileEntryRow } from '../../db/types.js';
import type { Actor } from '../access/actor.js';
import type { ResolvedScope } from '../access/scope.js';
import type { DriveFacade } from '../drive/facade.js';
import { freeName, nameProblem } from '../drive/names.js';
import { spaceOf, type ListedRow } from '../drive/repository.js';

export const PERSONAL = 'My drive';
export const SHARED = 'Shared with me';

/** A top-level collection: the caller's own drive, a workspace, or what others shared with them. */
export type Top = { kind: 'space'; name: string; workspaceId: number | null } | { kind: 'shared'; name: string };

/**
 * What a path names. Collections at the top are virtual (no rows); below
 * them, entries of the drive found by name and then checked by the access
 * policy. `missing` is a free name in an existing collection (PUT, MKCOL,
 * LOCK may create it); `orphan` has no collection above it (409 on writes).
 */
export type Resource =
  | { kind: 'root'; path: string[] }
  | { kind: 'top'; top: Top; scope: ResolvedScope; path: string[] }
  | { kind: 'entry'; entry: FileEntryRow; scope: ResolvedScope; top: Top; path: string[] }
  | { kind: 'missing'; parent: Exclude<Resource, { kind: 'missing' } | { kind: 'orphan' }>; name: string; path: string[] }
  | { kind: 'orphan'; path: string[] };

export type Collection = Exclude<Resource, { kind: 'missing' } | { kind: 'orphan' }>;

/** A member of a PROPFIND's answer: the collection asked about, or a child as a listing reads it (fewer columns). */
export type Listed = Exclude<Collection, { kind: 'entry' }> | { kind: 'entry'; entry: ListedRow; scope: ResolvedScope; top: Top; path: string[] };

export class BadPath extends Error {}

/**
 * The segments of a request path below the endpoint, decoded one by one so
 * that `%2F` can never become a separator; `.` and `..` (plain or encoded),
 * names the drive refuses and undecodable bytes are a bad path. Names are
 * compared in NFC, the form the drive stores, spaces at their ends included.
 */
export function segmentsOf(rawPath: string, prefix: string): string[] {
  const path = rawPath.split('?')[0]!;
  if (!path.startsWith(prefix)) throw new BadPath('outside the endpoint');
  const parts = path
    .slice(prefix.length)
    .split('/')
    .filter((part) => part !== '');
  return parts.map((part) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      throw new BadPath('undecodable');
    }
    // Spaces at either end are part of the name (clients such as rclone keep them); white space alone is not a name.
    const name = decoded.normalize('NFC');
    if (nameProblem(name.trim()) ?? nameProblem(name)) throw new BadPath('refused name');
    return name;
  });
}

/** Encodes a path for hrefs: every segment percent-encoded. */
export const hrefOf = (prefix: string, path: string[], collection: boolean): string =>
  `${prefix}/${path.map((s) => encodeURIComponent(s)).join('/')}${collection && path.length ? '/' : ''}`;

export interface ResolveDeps {
  drive: Pick<DriveFacade, 'findChild' | 'entry' | 'permitted' | 'sharedWithMe'>;
  scope(actor: Actor, workspaceId: number | null): Promise<ResolvedScope>;
  workspaces(actor: Actor): Promise<{ id: number; name: string }[]>;
}

/** Everyone's first two tops: a workspace never takes their names (topsOf), so a path under them needs no workspace list. */
const FIXED_TOPS: readonly Top[] = [
  { kind: 'space', name: PERSONAL, workspaceId: null },
  { kind: 'shared', name: SHARED },
];

/** The top-level collections by their unique names (workspaces that share a name get " (1)"-style suffixes). */
export async function topsOf(deps: ResolveDeps, actor: Actor): Promise<Top[]> {
  const tops: Top[] = [...FIXED_TOPS];
  const taken = new Set(tops.map((t) => t.name));
  for (const workspace of (await deps.workspaces(actor)).filter((w) => w.id > 0).sort((a, b) => a.id - b.id)) {
    const name = freeName(workspace.name.replace(/\//g, '_'), true, taken);
    taken.add(name);
    tops.push({ kind: 'space', name, workspaceId: workspace.id });
  }
  return tops;
}

/** Entries shared with the caller, named uniquely within "Shared with me". */
export async function sharedEntries(deps: ResolveDeps, actor: Actor): Promise<{ name: string; entry: FileEntryRow }[]> {
  const taken = new Set<string>();
  return (await deps.drive.sharedWithMe(actor)).map((entry) => {
    const name = freeName(entry.name, entry.type === 'folder', taken);
    taken.add(name);
    return { name, entry };
  });
}

export async function resolve(deps: ResolveDeps, actor: Actor, path: string[]): Promise<Resource> {
  if (!path.length) return { kind: 'root', path };
  const top = FIXED_TOPS.find((t) => t.name === path[0]) ?? (await topsOf(deps, actor)).find((t) => t.name === path[0]);
  if (!top) return path.length === 1 ? { kind: 'missing', parent: { kind: 'root', path: [] }, name: path[0]!, path } : { kind: 'orphan', path };
  const scope = await deps.scope(actor, top.kind === 'space' ? top.workspaceId : null);
  let current: Collection = { kind: 'top', top, scope, path: path.slice(0, 1) };
  for (let i = 1; i < path.length; i += 1) {
    const name = path[i]!;
    let found: FileEntryRow | undefined;
    if (current.kind === 'top' && top.kind === 'shared') found = (await sharedEntries(deps, actor)).find((s) => s.name === name)?.entry;
    else if (current.kind === 'top') found = await deps.drive.findChild(scope, null, name);
    else if (current.kind === 'entry' && current.entry.type === 'folder') found = await deps.drive.findChild(spaceOf(current.entry), current.entry.id, name);
    else return { kind: 'orphan', path };
    if (!found) return i === path.length - 1 ? { kind: 'missing', parent: current, name, path } : { kind: 'orphan', path };
    current = { kind: 'entry', entry: found, scope, top, path: path.slice(0, i + 1) };
  }
  // Finding a row by name proves nothing: the access policy decides (404 for what the caller may not see).
  // The row just found is what it decides on: it is not loaded again.
  if (current.kind === 'entry') current = { ...current, entry: await deps.drive.permitted(actor, 'files.view', current.entry) };
  return current;
}

/** Where locks are kept for a path: workspaces and own drives by id, so every member sees the same locks. */
export function lockKey(top: Top | null, userId: number, ownerId: number | null, path: string[]): string {
  if (!top) return `root:${userId}`;
  const space = top.kind === 'shared' ? `s:${userId}` : top.workspaceId ? `w:${top.workspaceId}` : `u:${ownerId ?? userId}`;
  return [space, ...path.slice(1)].join('/');
}
