import { queuedUpload } from '../../fixtures/upload-item';
import { UploadsDatabase } from '../../../src/offline/queues/uploads/db';
import type { UploadEvent } from '../../../src/offline/queues/uploads/protocol';
import type { FileEntry, UploadItem } from '../../../src/offline/queues/uploads/types';
import { UploadEngine } from '../../../src/offline/queues/uploads/engine';
import type { EngineDeps } from '../../../src/offline/queues/uploads/engine';
import { UploadFailure } from '../../../src/offline/queues/uploads/transport';
import type { Transport, TransportContext } from '../../../src/offline/queues/uploads/transport';

/** Lets IndexedDB (fake-indexeddb schedules with setImmediate) and promises run, even under fake timers. */
export async function flush(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export function makeItem(overrides: Partial<UploadItem> = {}): UploadItem {
  return queuedUpload({ id: crypto.randomUUID(), userId: '1', name: 'a.txt', size: 100, mime: 'text/plain', lastModified: 0, ...overrides });
}

export function makeEntry(name: string): FileEntry {
  return {
    id: `e-${name}`,
    hash: `e-${name}`,
    name,
    description: null,
    type: 'text',
    mime: 'text/plain',
    extension: 'txt',
    file_size: 100,
    parent_id: null,
    owner_id: 1,
    workspace_id: 0,
    is_starred: false,
    is_shared: false,
    owner_name: null,
    url: null,
    thumbnail_url: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    deleted_at: null,
    purge_at: null,
    permissions: ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download'],
  };
}

export interface FakeCall {
  item: UploadItem;
  context: TransportContext;
  resolve: (entry: FileEntry) => void;
  reject: (error: unknown) => void;
  aborted: boolean;
}

/** A transport the test finishes by hand. */
export function fakeTransport(): { transport: Transport; calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  const transport: Transport = (item, context) => {
    let resolve!: (entry: FileEntry) => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<FileEntry>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const call: FakeCall = { item, context, resolve, reject, aborted: false };
    calls.push(call);
    return {
      done,
      abort: () => {
        call.aborted = true;
        reject(new UploadFailure('aborted'));
      },
    };
  };
  return { transport, calls };
}

/** An engine over a fresh database, with user '1' signed in (as a page's kick would say). */
export async function setup(overrides: Partial<EngineDeps> = {}) {
  const db = new UploadsDatabase(`uploads-test-${crypto.randomUUID()}`);
  const plain = fakeTransport();
  const tus = fakeTransport();
  const events: UploadEvent[] = [];
  const network = { online: true };
  const engine = new UploadEngine({
    db,
    transports: { plain: plain.transport, tus: tus.transport, s3Simple: plain.transport, s3Multipart: tus.transport },
    notify: (event) => events.push(event),
    isOnline: () => network.online,
    ...overrides,
  });
  await engine.setUser('1');
  async function add(...items: UploadItem[]): Promise<void> {
    await db.items.bulkAdd(items);
    await db.blobs.bulkAdd(items.map((item) => ({ id: item.id, blob: new Blob(['x'.repeat(item.size)]) })));
  }
  const statusOf = async (id: string) => (await db.items.get(id))?.status;
  return { db, engine, plain, tus, events, network, add, statusOf };
}
