import { describe, expect, it } from 'vitest';
import { ALL_ACTIONS, ENTRY_ACTIONS, type ActionSet, type EntryAction } from '../../../server/modules/access/actions.js';
import { guestActor, userActor, type Actor } from '../../../server/modules/access/actor.js';
import { linkActions } from '../../../server/modules/access/grants.repository.js';
import { allowedActions, allowedActionsOf, decide, type Decision } from '../../../server/modules/access/policy.js';

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
  // The ceiling is the link owner's role (here a full member's); the grant decides what the drop gives.
  'file drop visitor': {
    kind: 'link',
    linkId: 10,
    linkOwnerId: 1,
    entry: { id: 6, ownerId: 1, workspaceId: null },
    allowDownload: false,
    fileDrop: true,
    permissions: filesRole,
  },
};

const grants: Record<string, ActionSet | undefined> = {
  none: undefined,
  empty: new Set(),
  owner: ALL_ACTIONS,
  'view only': new Set<EntryAction>(['files.view', 'files.download']),
  edit: new Set<EntryAction>(['files.view', 'files.create', 'files.update', 'files.delete', 'files.download']),
  'file drop': new Set<EntryAction>(['files.create']),
};

const ok = 'allow';
type Expect = typeof ok | 403 | 404;
const NOT_FOUND: Expect[] = [404, 404, 404, 404, 404, 404];
const FORBIDDEN: Expect[] = [403, 403, 403, 403, 403, 403];

/**
 * The expected decisions, written out by hand rather than derived, so a misreading shared by the policy
 * and its test cannot pass. Columns, in ENTRY_ACTIONS order: view, create, update, delete, download, share.
 */
const table: [actor: string, grant: string, expected: Expect[]][] = [
  ['member', 'none', NOT_FOUND],
  ['member', 'empty', NOT_FOUND],
  ['member', 'owner', [ok, ok, ok, ok, ok, 403]],
  ['member', 'view only', [ok, 403, 403, 403, ok, 403]],
  ['member', 'edit', [ok, ok, ok, ok, ok, 403]],
  ['member', 'file drop', [403, ok, 403, 403, 403, 403]],

  ['admin', 'none', NOT_FOUND],
  ['admin', 'empty', NOT_FOUND],
  ['admin', 'owner', [ok, ok, ok, ok, ok, ok]],
  ['admin', 'view only', [ok, 403, 403, 403, ok, 403]],
  ['admin', 'edit', [ok, ok, ok, ok, ok, 403]],
  ['admin', 'file drop', [403, ok, 403, 403, 403, 403]],

  ['member without update', 'none', NOT_FOUND],
  ['member without update', 'empty', NOT_FOUND],
  ['member without update', 'owner', [ok, ok, 403, ok, ok, 403]],
  ['member without update', 'view only', [ok, 403, 403, 403, ok, 403]],
  ['member without update', 'edit', [ok, ok, 403, ok, ok, 403]],
  ['member without update', 'file drop', [403, ok, 403, 403, 403, 403]],

  ['nobody (no file permissions)', 'none', NOT_FOUND],
  ['nobody (no file permissions)', 'empty', NOT_FOUND],
  ['nobody (no file permissions)', 'owner', FORBIDDEN],
  ['nobody (no file permissions)', 'view only', FORBIDDEN],
  ['nobody (no file permissions)', 'edit', FORBIDDEN],
  ['nobody (no file permissions)', 'file drop', FORBIDDEN],

  ['guest', 'none', NOT_FOUND],
  ['guest', 'empty', NOT_FOUND],
  ['guest', 'owner', FORBIDDEN],
  ['guest', 'view only', FORBIDDEN],
  ['guest', 'edit', FORBIDDEN],
  ['guest', 'file drop', FORBIDDEN],

  ['guest whose role may view', 'none', NOT_FOUND],
  ['guest whose role may view', 'empty', NOT_FOUND],
  ['guest whose role may view', 'owner', [ok, 403, 403, 403, 403, 403]],
  ['guest whose role may view', 'view only', [ok, 403, 403, 403, 403, 403]],
  ['guest whose role may view', 'edit', [ok, 403, 403, 403, 403, 403]],
  ['guest whose role may view', 'file drop', FORBIDDEN],

  ['link visitor', 'none', NOT_FOUND],
  ['link visitor', 'empty', NOT_FOUND],
  ['link visitor', 'owner', [ok, 403, 403, 403, ok, 403]],
  ['link visitor', 'view only', [ok, 403, 403, 403, ok, 403]],
  ['link visitor', 'edit', [ok, 403, 403, 403, ok, 403]],
  ['link visitor', 'file drop', FORBIDDEN],

  ['file drop visitor', 'none', NOT_FOUND],
  ['file drop visitor', 'empty', NOT_FOUND],
  ['file drop visitor', 'owner', [ok, ok, ok, ok, ok, 403]],
  ['file drop visitor', 'view only', [ok, 403, 403, 403, ok, 403]],
  ['file drop visitor', 'edit', [ok, ok, ok, ok, ok, 403]],
  ['file drop visitor', 'file drop', [403, ok, 403, 403, 403, 403]],
];

const asDecision = (expected: Expect): Decision => (expected === ok ? 'allow' : expected === 403 ? 'forbidden' : 'not-found');

describe('the link grant source', () => {
  it('gives view, and download only when allowed; a file drop gives upload into the folder and nothing else', () => {
    expect(linkActions({ allowDownload: true, fileDrop: false })).toEqual(['files.view', 'files.download']);
    expect(linkActions({ allowDownload: false, fileDrop: false })).toEqual(['files.view']);
    expect(linkActions({ allowDownload: true, fileDrop: true })).toEqual(['files.create']);
  });
});

describe('the access policy', () => {
  const rows = table.flatMap(([actor, grant, expected]) => ENTRY_ACTIONS.map((action, i) => [actor, grant, action, expected[i]!] as const));

  it.each(rows)('%s with grant "%s" asking %s: %s', (actorName, grantName, action, expected) => {
    expect(decide(actors[actorName]!, action, grants[grantName])).toBe(asDecision(expected));
  });

  it('the table has one row for every actor and grant, and covers every actor kind', () => {
    expect(new Set(Object.values(actors).map((a) => a.kind))).toEqual(new Set(['user', 'guest', 'link']));
    const pairs = table.map(([actor, grant]) => `${actor} × ${grant}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs.sort()).toEqual(
      Object.keys(actors)
        .flatMap((actor) => Object.keys(grants).map((grant) => `${actor} × ${grant}`))
        .sort(),
    );
    for (const [, , expected] of table) expect(expected).toHaveLength(ENTRY_ACTIONS.length);
    expect(ENTRY_ACTIONS).toEqual(['files.view', 'files.create', 'files.update', 'files.delete', 'files.download', 'files.share']);
  });

  it('tells clients what a grant allows within the ceiling, in catalogue order', () => {
    expect(allowedActions(actors.member!, ALL_ACTIONS)).toEqual(['files.view', 'files.create', 'files.update', 'files.delete', 'files.download']);
    expect(allowedActions(actors.admin!, ALL_ACTIONS)).toEqual([...ENTRY_ACTIONS]);
    expect(allowedActions(actors['member without update']!, grants['view only'])).toEqual(['files.view', 'files.download']);
    expect(allowedActions(actors.member!, undefined)).toEqual([]);
  });

  it("answers a page's rows as it answers one (the ceiling is worked out once per caller)", () => {
    for (const [actorName, grantName] of table) {
      const [actor, grant] = [actors[actorName]!, grants[grantName]];
      expect(allowedActionsOf(actor)(grant)).toEqual(ENTRY_ACTIONS.filter((action) => decide(actor, action, grant) === 'allow'));
    }
  });
});
