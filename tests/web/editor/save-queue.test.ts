import { describe, expect, it } from 'vitest';
import { cacheServerCopy, localCopy, saveDraft } from '../../../src/features/editor/drafts';
import { statusOf } from '../../../src/features/editor/use-document-editor';
import type { DocumentContent } from '../../../src/offline/documents/types';
import { SavesDatabase } from '../../../src/offline/queues/saves/db';
import { enqueueSave, SaveEngine } from '../../../src/offline/queues/saves/engine';
import { conflictCopyName, pickNextSave } from '../../../src/offline/queues/saves/rules';
import type { SaveItem } from '../../../src/offline/queues/saves/types';
import { MemorySession } from '../../../src/offline/queues/session';
import { userDatabase } from '../../../src/offline/user-db';
import { flush } from '../uploads/helpers';

const doc = (text: string): DocumentContent => [{ kind: 'paragraph', runs: [{ type: 'text', text, fontAttributes: {} }] }];
let clock = 1000;

function item(overrides: Partial<SaveItem>): SaveItem {
  clock += 1;
  return {
    id: crypto.randomUUID(),
    userId: 'u1',
    status: 'pending',
    waitingForNetwork: false,
    updatedAt: clock,
    createdAt: clock,
    entryId: 'doc1',
    name: 'Report.docx',
    workspaceId: null,
    content: doc('x'),
    baseVersion: 'v1',
    draftUpdatedAt: clock,
    outcome: null,
    version: null,
    copyName: null,
    errorMessage: null,
    ...overrides,
  };
}

/**
 * A document server in memory, speaking the save and save-copy calls: a save
 * names the version it was edited from, and a stale one answers 409.
 */
function fakeServer(initial = 'v1') {
  let version = initial;
  let n = 1;
  const saves: { version: string; text: string }[] = [];
  const copies: { name: string; text: string }[] = [];
  let online = true;
  const text = (content: DocumentContent) => content.map((s) => (s.runs ?? []).map((r) => (r.type === 'text' ? r.text : '')).join('')).join('\n');
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!online) throw new TypeError('Failed to fetch');
    const url = new URL(String(input));
    const body = JSON.parse(String(init?.body)) as { version?: string; content: DocumentContent; name?: string };
    if (url.pathname === '/api/v1/file-entries/save') {
      if (body.version !== version) return Response.json({ message: 'changed', version }, { status: 409 });
      n += 1;
      version = `v${n}`;
      saves.push({ version, text: text(body.content) });
      return Response.json({ version });
    }
    copies.push({ name: body.name!, text: text(body.content) });
    return Response.json({ fileEntry: { hash: 'copy' } });
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    saves,
    copies,
    /** Someone else saves meanwhile. */
    bump: () => {
      n += 1;
      version = `v${n}`;
    },
    setOnline: (value: boolean) => (online = value),
    get online() {
      return online;
    },
  };
}

function setup(server = fakeServer()) {
  const db = new SavesDatabase(`saves-${crypto.randomUUID()}`);
  const session = new MemorySession();
  const events: SaveItem[] = [];
  const engine = new SaveEngine({
    db,
    http: { fetch: server.fetch, origin: 'http://drive.test', getXsrfToken: async () => 'token' },
    notify: (event) => events.push(event.item),
    isOnline: () => server.online,
    session,
  });
  return { db, engine, server, events, session };
}

describe('the draft store', () => {
  it('shows the draft over the older server copy, and the server copy when there is no draft', async () => {
    const user = `drafts-${crypto.randomUUID()}`;
    expect(await localCopy(user, 'doc1')).toBeNull();
    await cacheServerCopy(user, { entryId: 'doc1', name: 'Report.docx', content: doc('server'), version: 'v1' });
    expect(await localCopy(user, 'doc1')).toEqual({ content: doc('server'), version: 'v1', name: 'Report.docx', isDraft: false });
    await saveDraft(user, 'doc1', doc('draft'), 'v1', 5);
    expect(await localCopy(user, 'doc1')).toEqual({ content: doc('draft'), version: 'v1', name: 'Report.docx', isDraft: true });
    expect(await userDatabase(user).drafts.get('doc1')).toEqual({ entryId: 'doc1', content: doc('draft'), baseEtag: 'v1', updatedAt: 5 });
  });
});

describe('the document-save queue', () => {
  it('keeps one waiting save per document: a newer one replaces its content', async () => {
    const { db } = setup();
    const first = await enqueueSave(db, item({ content: doc('one') }));
    const second = await enqueueSave(db, item({ content: doc('two') }));
    expect(second.id).toBe(first.id);
    expect(await db.items.count()).toBe(1);
    expect((await db.items.get(first.id))!.content).toEqual(doc('two'));
  });

  it('sends saves one at a time, oldest first, each with its base version, and moves later saves onto the new version', async () => {
    const { db, engine, server, session } = setup();
    await session.setUser('u1');
    await db.items.add(item({ id: 'a', content: doc('first') }));
    // 'c' is the same document, edited on top of 'a' while 'a' waits: same base.
    await db.items.add(item({ id: 'c', content: doc('second'), baseVersion: 'v1' }));
    expect(pickNextSave(await db.items.toArray(), 'u1').map((i) => i.id)).toEqual(['a']);
    await engine.run();
    await flush();
    expect(server.saves.map((s) => s.text)).toEqual(['first', 'second']);
    expect(server.saves.map((s) => s.version)).toEqual(['v2', 'v3']);
    expect((await db.items.get('c'))!).toMatchObject({ status: 'completed', outcome: 'saved', baseVersion: 'v2', version: 'v3' });
  });

  it('waits offline (parked, not failed) and sends when the network returns', async () => {
    const { db, engine, server, session, events } = setup();
    await session.setUser('u1');
    server.setOnline(false);
    await db.items.add(item({ id: 'a', content: doc('offline') }));
    await engine.run();
    expect(server.saves).toHaveLength(0);
    expect((await db.items.get('a'))!.status).toBe('pending');
    expect(statusOf((await db.items.get('a'))!, false)).toBe('offline');
    server.setOnline(true);
    await engine.run();
    await flush();
    expect(server.saves.map((s) => s.text)).toEqual(['offline']);
    expect(events.at(-1)).toMatchObject({ id: 'a', status: 'completed', outcome: 'saved' });
    expect(statusOf(events.at(-1)!, true)).toBe('saved');
  });

  it('a landed save settles the draft it held, and moves a newer draft onto the new version', async () => {
    const user = `u-${crypto.randomUUID()}`;
    const { db, engine, session } = setup();
    await session.setUser(user);
    await saveDraft(user, 'doc1', doc('queued'), 'v1', 10);
    await db.items.add(item({ id: 'a', userId: user, content: doc('queued'), draftUpdatedAt: 10 }));
    await engine.run();
    await flush();
    expect(await userDatabase(user).drafts.get('doc1')).toBeUndefined();
    expect(await userDatabase(user).documents.get('doc1')).toMatchObject({ version: 'v2', content: doc('queued') });

    await saveDraft(user, 'doc1', doc('newer'), 'v2', 30);
    await db.items.add(item({ id: 'b', userId: user, content: doc('queued again'), baseVersion: 'v2', draftUpdatedAt: 20 }));
    await engine.run();
    await flush();
    expect(await userDatabase(user).drafts.get('doc1')).toMatchObject({ content: doc('newer'), baseEtag: 'v3' });
  });

  it('a conflict never overwrites: the newest local content becomes a copy beside the original, and both remain', async () => {
    const user = `u-${crypto.randomUUID()}`;
    const { db, engine, server, session } = setup();
    await session.setUser(user);
    server.bump(); // someone else saved v2
    await saveDraft(user, 'doc1', doc('mine, newest'), 'v1', 50);
    await db.items.add(item({ id: 'a', userId: user, content: doc('mine'), draftUpdatedAt: 40, createdAt: 1 }));
    await db.items.add(item({ id: 'b', userId: user, content: doc('mine, newest'), draftUpdatedAt: 50, createdAt: 2 }));
    await engine.run();
    await flush();
    expect(server.saves).toEqual([]);
    expect(server.copies).toHaveLength(1);
    expect(server.copies[0]!.text).toBe('mine, newest');
    expect(server.copies[0]!.name).toMatch(/^Report \(conflict \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\)\.docx$/);
    expect((await db.items.toArray()).map((i) => [i.id, i.status, i.outcome])).toEqual([
      ['a', 'completed', 'conflict'],
      ['b', 'completed', 'conflict'],
    ]);
    // The copy holds the draft; the stale copy of the server version goes, so the next open reads the server's.
    expect(await userDatabase(user).drafts.get('doc1')).toBeUndefined();
    expect(await userDatabase(user).documents.get('doc1')).toBeUndefined();
  });

  it("a page that has not heard its save landed still builds on it, not on a copy of someone else's change", async () => {
    const { db } = setup();
    await db.items.add(item({ id: 'a', status: 'completed', outcome: 'saved', baseVersion: 'v1', version: 'v2' }));
    const queued = await enqueueSave(db, item({ id: 'b', baseVersion: 'v1' }));
    expect(queued.baseVersion).toBe('v2');
  });

  it('names conflict copies by the local date and time', () => {
    expect(conflictCopyName('Report.docx', new Date(2026, 10, 25, 14, 5))).toBe('Report (conflict 2026-11-25 14.05).docx');
    expect(conflictCopyName('Notes', new Date(2026, 0, 2, 3, 4))).toBe('Notes (conflict 2026-01-02 03.04).docx');
  });
});
