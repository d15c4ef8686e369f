import { describe, expect, it } from 'vitest';
import type { LinkActor } from '../../../server/modules/access/actor.js';
import { visitorDeps, type ShareLinksModuleDeps } from '../../../server/modules/share-links/index.js';

/** The share-link visitor's closures: every file call is the drive's own, under the link's actor. */
describe('visitorDeps', () => {
  const actor = { kind: 'link' } as unknown as LinkActor;
  const calls: unknown[][] = [];
  const record =
    (name: string, answer: unknown = null) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
      return answer as never;
    };
  const deps = visitorDeps({
    db: {} as never,
    settings: { appKey: async () => 'key' },
    users: { findById: async (id: number) => (id === 1 ? ({ first_name: 'Ada', last_name: null, email: 'ada@example.com' } as never) : undefined) },
    permissionsOf: async () => [{ name: 'files.view', restrictions: [] }],
    passwordChecks: { check: (_limits, compare) => compare() },
    drive: {
      scope: record('scope'),
      listing: { list: record('list') },
      files: { download: record('download'), openable: record('openable'), preview: record('preview') },
      thumbnails: {},
    } as unknown as ShareLinksModuleDeps['drive'],
    uploads: { storePlain: record('storePlain') } as never,
    appUrl: async () => 'http://localhost',
    activity: { record: async () => undefined },
    notifier: { notify: async () => null },
  });

  it('opens the drive in the link owner’s own space (no workspace) and lists, downloads and previews through the drive', async () => {
    await deps.scope(actor);
    await deps.list(actor, {} as never, {} as never);
    await deps.openable(actor, 'abc');
    await deps.preview(actor, 'abc');
    expect(calls.map(([name, ...args]) => [name, ...args.slice(0, 2)])).toEqual([
      ['scope', actor, null],
      ['list', actor, {}],
      ['openable', actor, 'abc'],
      ['preview', actor, 'abc'],
    ]);
  });

  it('names the link’s owner, or nobody once the account is gone', async () => {
    expect(await deps.ownerName(1)).toBe('Ada');
    expect(await deps.ownerName(2)).toBeNull();
  });

  it('counts password guesses through the shared password checks before comparing', async () => {
    let compared = false;
    expect(
      await deps.checkPassword([], async () => {
        compared = true;
        return 'ok';
      }),
    ).toBe('ok');
    expect(compared).toBe(true);
    expect(await deps.appKey()).toBe('key');
  });
});
