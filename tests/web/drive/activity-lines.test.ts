import { describe, expect, it } from 'vitest';
import { activityActor, activityLine } from '../../../src/features/drive/components/ActivityPanel';
import type { ActivityRecord } from '../../../src/features/drive/api/activity';
import { enLines as en } from '../../../server/modules/localizations/lines/en';
import { trLines as tr } from '../../../server/modules/localizations/lines/tr';

const translate =
  (lines: Record<string, string>) =>
  (key: string, values: Record<string, string | number> = {}) =>
    (lines[key] ?? `MISSING ${key}`).replace(/:(\w+)/g, (_, name: string) => String(values[name] ?? `:${name}`));

const record = (action: string, extra: Partial<ActivityRecord> = {}): ActivityRecord => ({
  id: 1,
  entry_id: 1,
  entry_name: 'a.txt',
  entry_type: 'text',
  action,
  actor: { kind: 'user', id: 1, name: 'Ada' },
  address: null,
  details: {},
  created_at: '2026-11-27T10:00:00.000Z',
  ...extra,
});

/** Every activity line and actor exists in English and Turkish (issue 35). */
describe('activity lines', () => {
  const actions = [
    'created',
    'new-version',
    'renamed',
    'moved',
    'copied',
    'trashed',
    'restored',
    'purged',
    'shared',
    'unshared',
    'permission-changed',
    'link-created',
    'link-opened',
    'link-downloaded',
    'dropped',
  ];
  for (const [name, lines] of [
    ['en', en],
    ['tr', tr],
  ] as const) {
    it(`has a ${name} line for each action and actor`, () => {
      const t = translate(lines) as never;
      for (const action of actions) expect(activityLine(record(action, { details: { from: 'a', to: 'b', with: 'Bo', name: 'x' } }), t)).not.toMatch(/MISSING/);
      for (const kind of ['visitor', 'system', 'webdav'])
        expect(activityActor(record('created', { actor: { kind, id: null, name: null }, address: '203.0.113.0/24' }), t)).not.toMatch(/MISSING/);
    });
  }

  it('reads a rename and a visitor in English', () => {
    const t = translate(en) as never;
    expect(activityLine(record('renamed', { details: { from: 'a.txt', to: 'b.txt' } }), t)).toBe('Renamed from a.txt to b.txt');
    expect(activityActor(record('link-downloaded', { actor: { kind: 'visitor', id: null, name: null }, address: '203.0.113.0/24' }), t)).toBe(
      'A link visitor (203.0.113.0/24)',
    );
  });
});
