import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePushPayload, showUnreadBadge } from '../../../src/offline/notifications';
import { UploadsDatabase } from '../../../src/offline/queues/uploads/db';
import { readUploadSettings } from '../../../src/offline/queues/uploads/rules';
import { claimSharedFiles, queueSharedFiles, rememberUploadSettings, UNCLAIMED } from '../../../src/offline/queues/uploads/shared-files';
import { consumeLaunches, handleLaunch } from '../../../src/features/pwa/launch-consumer';
import type { LaunchDeps, LaunchParamsLike } from '../../../src/features/pwa/launch-consumer';
import { sharedCountOf } from '../../../src/features/pwa/shared-count';

// Issue 39 item 5: the installed app's badge, its .docx launches and the files shared into it.

describe('the app badge', () => {
  const badgeApi = () => ({ setAppBadge: vi.fn(() => Promise.resolve()), clearAppBadge: vi.fn(() => Promise.resolve()) });

  it('shows the unread count and clears at zero', async () => {
    const nav = badgeApi();
    await showUnreadBadge(nav, 3);
    expect(nav.setAppBadge).toHaveBeenCalledWith(3);
    await showUnreadBadge(nav, 0);
    expect(nav.clearAppBadge).toHaveBeenCalledTimes(1);
    expect(nav.setAppBadge).toHaveBeenCalledTimes(1);
  });

  it('does nothing where the browser has no Badging API, and swallows a refusal', async () => {
    await expect(showUnreadBadge({}, 5)).resolves.toBeUndefined();
    const refusing = { setAppBadge: () => Promise.reject(new DOMException('not installed', 'NotAllowedError')) };
    await expect(showUnreadBadge(refusing, 5)).resolves.toBeUndefined();
  });

  it('takes the count a push carries, for the worker to set without a page', () => {
    const base = { id: 'n1', title: 'Ada shared Plans' };
    expect(parsePushPayload(JSON.stringify({ ...base, unreadCount: 4 }))?.unreadCount).toBe(4);
    for (const bad of [-1, 1.5, '4', null]) expect(parsePushPayload(JSON.stringify({ ...base, unreadCount: bad }))).not.toHaveProperty('unreadCount');
  });
});

const fileHandle = (file: File) => ({ kind: 'file', getFile: () => Promise.resolve(file) });
const docx = (name: string) => new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });

function launchDeps(entryId = 42) {
  const uploaded: File[][] = [];
  const opened: string[] = [];
  const deps: LaunchDeps = {
    upload: async (files) => {
      uploaded.push(files);
      return files.map((_, i) => `item-${i}`);
    },
    whenUploaded: async (itemId) => ({ id: itemId === 'item-0' ? entryId : -1 }),
    open: (path) => opened.push(path),
  };
  return { deps, uploaded, opened };
}

describe('a .docx opened from the operating system (File Handling)', () => {
  it('uploads the documents and opens the first in the editor once it is in the drive', async () => {
    const { deps, uploaded, opened } = launchDeps();
    const notes = new File(['x'], 'notes.png', { type: 'image/png' });
    await handleLaunch({ files: [fileHandle(docx('Plan.docx')), fileHandle(notes), fileHandle(docx('Old.DOCX'))] }, deps);
    expect(uploaded.map((files) => files.map((f) => f.name))).toEqual([['Plan.docx', 'Old.DOCX']]);
    expect(opened).toEqual(['/doc/42']);
  });

  it('does nothing for a launch without documents (a plain start of the app)', async () => {
    const { deps, uploaded, opened } = launchDeps();
    await handleLaunch({ files: [] }, deps);
    await handleLaunch({}, deps);
    await handleLaunch({ files: [{ kind: 'directory', getFile: () => Promise.reject(new Error('a folder')) }] }, deps);
    expect(uploaded).toEqual([]);
    expect(opened).toEqual([]);
  });

  it('takes launches from the window’s launch queue where the browser has one', async () => {
    const { deps, opened } = launchDeps(7);
    let consumer: ((params: LaunchParamsLike) => void) | null = null;
    expect(consumeLaunches({ launchQueue: { setConsumer: (c) => (consumer = c) } }, deps)).toBe(true);
    consumer!({ files: [fileHandle(docx('Brief.docx'))] });
    await vi.waitFor(() => expect(opened).toEqual(['/doc/7']));
    expect(consumeLaunches({}, deps)).toBe(false);
  });
});

describe('files shared into the app (Web Share Target)', () => {
  let db: UploadsDatabase;
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('are queued for the personal root, unclaimed, under the settings the site last gave', async () => {
    db = new UploadsDatabase(`shared-${crypto.randomUUID()}`);
    await rememberUploadSettings(db, readUploadSettings({ blocked_extensions: ['exe'], disable_tus: true }));
    const photo = new File([new Uint8Array(5 * 1024 * 1024)], 'beach.jpg', { type: 'image/jpeg' });
    const items = await queueSharedFiles(db, [photo, new File(['MZ'], 'setup.exe'), new File([''], '.DS_Store')], { formatSize: String, now: 1000 });
    expect(items.map(({ name, userId, folderHash, workspaceId, status, method }) => ({ name, userId, folderHash, workspaceId, status, method }))).toEqual([
      { name: 'beach.jpg', userId: UNCLAIMED, folderHash: '0', workspaceId: null, status: 'pending', method: 'plain' },
      { name: 'setup.exe', userId: UNCLAIMED, folderHash: '0', workspaceId: null, status: 'failed', method: 'plain' },
    ]);
    // A refused file keeps no bytes; the accepted one's are on the device, ready to send.
    expect((await db.blobs.toArray()).map((blob) => blob.id)).toEqual([items[0]!.id]);
  });

  it('are claimed by the user signed in on the page they land on, and only the unclaimed ones', async () => {
    db = new UploadsDatabase(`shared-${crypto.randomUUID()}`);
    const [shared] = await queueSharedFiles(db, [new File(['a'], 'a.txt')], { formatSize: String });
    const [mine] = await queueSharedFiles(db, [new File(['b'], 'b.txt')], { formatSize: String });
    await db.items.update(mine!.id, { userId: '7' });
    expect((await claimSharedFiles(db, '9')).map((item) => item.id)).toEqual([shared!.id]);
    expect((await db.items.get(shared!.id))?.userId).toBe('9');
    expect((await db.items.get(mine!.id))?.userId).toBe('7');
    expect(await claimSharedFiles(db, UNCLAIMED)).toEqual([]);
  });

  it('are announced on the sign-in page from its redirect target', () => {
    expect(sharedCountOf('/drive?shared=3')).toBe(3);
    for (const none of [null, '/drive', '/drive?shared=0', '/drive?shared=x', 'https://evil.example/drive?shared=2']) expect(sharedCountOf(none)).toBe(0);
  });
});
