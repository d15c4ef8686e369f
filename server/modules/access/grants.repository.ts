import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, FileEntryRow } from '../../db/types.js';
import { ALL_ACTIONS, NO_ACTIONS, type ActionSet, type EntryAction } from './actions.js';
import { ancestorIds, type Scope } from '../drive/repository.js';
import { signedInUserId, type Actor } from './actor.js';
import { loadMembership, loadMemberships } from './memberships.repository.js';
import { entryActions } from './workspace-policy.js';

/**
 * Where grants come from, one source each, in the shape of immich's
 * AccessRepository: given a batch of entries, which of them this actor reaches
 * through the source, and with which actions. The answers are unioned.
 * Ownership, workspace membership, shares with people and share links.
 */
export type GrantRow = Pick<FileEntryRow, 'id' | 'owner_id' | 'workspace_id' | 'path'>;
/** A grant's set may be shared between rows (ALL_ACTIONS, say): never changed in place. */
export type Grants = Map<number, ActionSet>;

type Db = Kysely<Database>;

export interface GrantSource {
  /** Grants on existing entries. */
  entries(db: Db, actor: Actor, rows: GrantRow[]): Promise<Grants>;
  /** What the actor may do at the root of a space (create there, list it). */
  root(db: Db, actor: Actor, space: Scope): Promise<ActionSet>;
}

/** Owners do everything to what they own, and to the root of their personal space. */
const ownerSource: GrantSource = {
  async entries(_db, actor, rows) {
    const userId = signedInUserId(actor);
    const grants: Grants = new Map();
    if (userId === null) return grants;
    // One shared set for every owned row: a page of one's own drive made 50 copies of it (issue 38 §3).
    for (const row of rows) if (row.owner_id === userId) grants.set(row.id, ALL_ACTIONS);
    return grants;
  },
  async root(_db, actor, space) {
    return space.workspaceId === null && space.ownerId === signedInUserId(actor) ? ALL_ACTIONS : NO_ACTIONS;
  },
};

/**
 * Membership of the entry's workspace, the member's role deciding the actions
 * (the owner's: all). One membership query per batch, whatever its size.
 */
const workspaceSource: GrantSource = {
  async entries(db, actor, rows) {
    const userId = signedInUserId(actor);
    const grants: Grants = new Map();
    const inWorkspaces = rows.filter((row) => row.workspace_id !== null);
    if (userId === null || !inWorkspaces.length) return grants;
    const memberships = await loadMemberships(
      db,
      userId,
      inWorkspaces.map((row) => row.workspace_id!),
    );
    for (const row of inWorkspaces) {
      const actions = entryActions(memberships.get(row.workspace_id!));
      if (actions.size) grants.set(row.id, new Set(actions));
    }
    return grants;
  },
  async root(db, actor, space) {
    const userId = signedInUserId(actor);
    if (userId === null || space.workspaceId === null) return NO_ACTIONS;
    return entryActions(await loadMembership(db, userId, space.workspaceId));
  },
};

/** What a share's permission lets its recipient do (spec: can view and download, or can edit). */
export const SHARE_ACTIONS: Record<string, readonly EntryAction[]> = {
  view: ['files.view', 'files.download'],
  edit: ['files.view', 'files.download', 'files.create', 'files.update', 'files.delete'],
};

/**
 * Shares with people, inherited down the tree: a share on the entry or any
 * ancestor (one indexed `entry_id in (ids from the path)` query per batch);
 * the strongest share along the path wins.
 */
const shareSource: GrantSource = {
  async entries(db, actor, rows) {
    const userId = signedInUserId(actor);
    const grants: Grants = new Map();
    if (userId === null) return grants;
    // What the caller holds already has every action: a share could add nothing (and a listing of
    // one's own drive then costs no share query at all).
    const others = rows.filter((row) => row.owner_id !== userId);
    if (!others.length) return grants;
    const pathIds = new Map(others.map((row) => [row.id, [...ancestorIds(row.path), row.id]]));
    const ids = [...new Set([...pathIds.values()].flat())];
    if (!ids.length) return grants;
    const shares = await db.selectFrom('entry_shares').select(['entry_id', 'permission']).where('user_id', '=', userId).where('entry_id', 'in', ids).execute();
    if (!shares.length) return grants;
    const byEntry = new Map(shares.map((share) => [share.entry_id, share.permission]));
    for (const row of others) {
      const actions = new Set<EntryAction>();
      for (const id of pathIds.get(row.id)!) for (const action of SHARE_ACTIONS[byEntry.get(id) ?? ''] ?? []) actions.add(action);
      if (actions.size) grants.set(row.id, actions);
    }
    return grants;
  },
  root: async () => NO_ACTIONS,
};

/**
 * What a share link lets its holder do, from the link's flags (the actor
 * carries them, read fresh for each request): on the linked entry and
 * everything below it, view and, if allowed, download; a file drop lets them
 * upload into the linked folder itself and reach nothing else.
 */
export function linkActions(link: { allowDownload: boolean; fileDrop: boolean }): readonly EntryAction[] {
  if (link.fileDrop) return ['files.create'];
  return link.allowDownload ? ['files.view', 'files.download'] : ['files.view'];
}

const linkSource: GrantSource = {
  async entries(db, actor, rows) {
    const grants: Grants = new Map();
    if (actor.kind !== 'link' || !rows.length) return grants;
    // A link speaks for its maker: while they are suspended (or gone) it grants nothing, as if revoked,
    // and it works again once the suspension is lifted. Read per batch, so no cached actor outlives it.
    const maker = await db.selectFrom('users').select('suspended_at').where('id', '=', actor.linkOwnerId).executeTakeFirst();
    if (!maker || maker.suspended_at !== null) return grants;
    const linked = actor.entry.id;
    for (const row of rows) {
      const inside = row.id === linked || (!actor.fileDrop && ancestorIds(row.path).includes(linked));
      if (inside) grants.set(row.id, new Set(linkActions(actor)));
    }
    return grants;
  },
  root: async () => NO_ACTIONS,
};

export const GRANT_SOURCES: readonly GrantSource[] = [ownerSource, workspaceSource, shareSource, linkSource];

/** `from` is a source's fresh answer: its sets are taken over rather than copied, and a set held already is replaced by the union, never changed. */
function union(into: Grants, from: Grants): void {
  for (const [id, actions] of from) {
    const held = into.get(id);
    if (!held || held.size === ALL_ACTIONS.size) into.set(id, held ?? actions);
    else if (actions.size === ALL_ACTIONS.size) into.set(id, actions);
    else into.set(id, new Set([...held, ...actions]));
  }
}

/** Whether every row already holds every action: the sources only add, so the rest could change nothing. */
const complete = (grants: Grants, rows: GrantRow[]): boolean =>
  grants.size === rows.length && rows.every((row) => grants.get(row.id)?.size === ALL_ACTIONS.size);

/** Every grant the actor holds on these entries, all sources together. */
export async function loadGrants(db: Db, actor: Actor, rows: GrantRow[], sources = GRANT_SOURCES): Promise<Grants> {
  const grants: Grants = new Map();
  if (!rows.length) return grants;
  for (const source of sources) {
    union(grants, await source.entries(db, actor, rows));
    if (complete(grants, rows)) break;
  }
  return grants;
}

export async function loadRootGrant(db: Db, actor: Actor, space: Scope, sources = GRANT_SOURCES): Promise<ActionSet> {
  const actions = new Set<EntryAction>();
  for (const source of sources) {
    const granted = await source.root(db, actor, space);
    // Everything already (one's own space): the other sources could add nothing.
    if (granted.size === ALL_ACTIONS.size) return granted;
    for (const action of granted) actions.add(action);
  }
  return actions;
}

/**
 * The "Shared with me" listing: the entries shared with the actor themselves
 * (what is inside a shared folder shows when it is opened).
 */
export function sharedWithFilter(actor: Actor): Expression<SqlBool> {
  const userId = signedInUserId(actor) ?? 0;
  return sql<SqlBool>`exists (select 1 from entry_shares where entry_shares.entry_id = file_entries.id and entry_shares.user_id = ${userId})`;
}
