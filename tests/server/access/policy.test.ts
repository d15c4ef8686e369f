import { describe, expect, it } from 'vitest';
import { ALL_ACTIONS, ENTRY_ACTIONS, type ActionSet, type EntryAction } from '../../../server/modules/access/actions.js';
import { guestActor, userActor, type Actor } from '../../../server/modules/access/actor.js';
import { linkActions } from '../../../server/modules/access/grants.repository.js';
import { allowedActions, decide, type Decision } from '../../../server/modules/access/policy.js';

// The policy as a table (Outline's policies/document.test.ts): actor × grant × action → decision.
const filesRole = ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download'].map((name) => ({ name, restrictions: [] }));

const actors: Record<string, Actor> = {
  member: userActor(1, filesRole),
  admin: userActor(2, [{ name: 'admin', restrictions: [] }]),
  'member without update': userActor(
    3,
    filesRole.filter((p) => p.name !== 'files.update'),
  ),
  'nobody (no file permissions)': userActor(4, []),
  guest: guestActor([]),
  'guest whose role may view': guestActor([{ name: 'files.view', restrictions: [] }]),
  'link visitor': {
    kind: 'link',
    linkId: 9,
    linkOwnerId: 1,
    entry: { id: 5, ownerId: 1, workspaceId: null },
    allowDownload: true,
    fileDrop: false,
    permissions: [
      { name: 'files.view', restrictions: [] },
      { name: 'files.download', restrictions: [] },
    ],
  },
};

const grants: Record<string, ActionSet | undefined> = {
  none: undefined,
  empty: new Set(),
  owner: ALL_ACTIONS,
  'view only': new Set<EntryAction>(['files.view', 'files.download']),
};

/** The expected decision, stated as the rule: no grant → 404; grant and ceiling both hold the action → allow; else 403. */
function expected(actorName: string, grantName: string, action: EntryAction): Decision {
  const grant = grants[grantName];
  if (!grant || grant.size === 0) return 'not-found';
  if (!grant.has(action)) return 'forbidden';
  const ceiling: Record<string, (a: EntryAction) => boolean> = {
    member: (a) => a !== 'files.share',
    admin: () => true,
    'member without update': (a) => a !== 'files.share' && a !== 'files.update',
    'nobody (no file permissions)': () => false,
    guest: () => false,
    'guest whose role may view': (a) => a === 'files.view',
    'link visitor': (a) => a === 'files.view' || a === 'files.download',
  };
  return ceiling[actorName]!(action) ? 'allow' : 'forbidden';
}

describe('the link grant source', () => {
  it('gives view, and download only when allowed; a file drop gives upload into the folder and nothing else', () => {
    expect(linkActions({ allowDownload: true, fileDrop: false })).toEqual(['files.view', 'files.download']);
    expect(linkActions({ allowDownload: false, fileDrop: false })).toEqual(['files.view']);
    expect(linkActions({ allowDownload: true, fileDrop: true })).toEqual(['files.create']);
  });
});

describe('the access policy', () => {
  const rows = Object.keys(actors).flatMap((actor) => Object.keys(grants).flatMap((grant) => ENTRY_ACTIONS.map((action) => [actor, grant, action] as const)));

  it.each(rows)('%s with grant "%s" asking %s', (actorName, grantName, action) => {
    expect(decide(actors[actorName]!, action, grants[grantName])).toBe(expected(actorName, grantName, action));
  });

  it('covers every actor kind, grant shape and action', () => {
    expect(new Set(Object.values(actors).map((a) => a.kind))).toEqual(new Set(['user', 'guest', 'link']));
    expect(rows).toHaveLength(Object.keys(actors).length * Object.keys(grants).length * ENTRY_ACTIONS.length);
  });

  it('tells clients what a grant allows within the ceiling, in catalogue order', () => {
    expect(allowedActions(actors.member!, ALL_ACTIONS)).toEqual(['files.view', 'files.create', 'files.update', 'files.delete', 'files.download']);
    expect(allowedActions(actors.admin!, ALL_ACTIONS)).toEqual([...ENTRY_ACTIONS]);
    expect(allowedActions(actors['member without update']!, grants['view only'])).toEqual(['files.view', 'files.download']);
    expect(allowedActions(actors.member!, undefined)).toEqual([]);
  });
});
