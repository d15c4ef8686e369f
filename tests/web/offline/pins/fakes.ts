import type { CacheStore } from '../../../../src/offline/pins/bytes';
import type { ManifestEntry } from '../../../../src/offline/pins/types';

// An in-memory Cache Storage (the parts the pins store uses) and a drive
// server that answers the manifest, listings, downloads (with Range and
// If-Range as the real one), thumbnails and document reads.

class MemoryCache {
  readonly entries = new Map<string, Blob>();
  readonly headers = new Map<string, [string, string][]>();

  async put(key: RequestInfo | URL, response: Response): Promise<void> {
    const url = String(key instanceof Request ? key.url : key);
    this.headers.set(url, [...response.headers.entries()]);
    this.entries.set(url, await response.blob());
  }
  async match(key: RequestInfo | URL): Promise<Response | undefined> {
    const url = String(key instanceof Request ? key.url : key);
    const blob = this.entries.get(url);
    return blob ? new Response(blob, { headers: this.headers.get(url) }) : undefined;
  }
  async delete(key: RequestInfo | URL): Promise<boolean> {
    const url = String(key instanceof Request ? key.url : key);
    this.headers.delete(url);
    return this.entries.delete(url);
  }
  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

export class MemoryCaches implements CacheStore {
  readonly caches = new Map<string, MemoryCache>();
  async open(name: string): Promise<Cache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new MemoryCache();
      this.caches.set(name, cache);
    }
    return cache as unknown as Cache;
  }
  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }
  /** Every stored key of a cache. */
  stored(name: string): string[] {
    return [...(this.caches.get(name)?.entries.keys() ?? [])].sort();
  }
}

export interface FakeFile {
  id: string;
  parentId: string;
  name: string;
  content: string;
  mime?: string;
}

export const sha = (content: string) => `sha-${content.length}-${[...content].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)}`;

export class FakeDrive {
  readonly folders = new Map<string, { id: string; parentId: string | null; name: string }>();
  readonly files = new Map<string, FakeFile>();
  version = 1;
  requests: { path: string; headers: Record<string, string> }[] = [];
  bytesSent = 0;
  /** Cut a download's body after this many bytes (once), as a dropped connection would. */
  cutAfter: number | null = null;
  offline = false;
  /** The manifest's answer instead of the manifest (a folder too large to pin). */
  refuse: { status: number; message: string } | null = null;

  constructor(readonly origin = 'https://drive.test') {}

  folder(id: string, parentId: string | null, name: string) {
    this.folders.set(id, { id, parentId, name });
    this.version += 1;
  }
  file(file: FakeFile) {
    this.files.set(file.id, file);
    this.version += 1;
  }
  remove(id: string) {
    this.files.delete(id);
    this.folders.delete(id);
    this.version += 1;
  }

  private manifestEntry(id: string): ManifestEntry | null {
    const folder = this.folders.get(id);
    if (folder)
      return {
        id,
        parentId: folder.parentId,
        type: 'folder',
        name: folder.name,
        mime: null,
        size: 0,
        sha256: null,
        updatedAt: 't',
        canDownload: true,
        hasThumbnail: false,
      };
    const file = this.files.get(id);
    if (!file) return null;
    return {
      id,
      parentId: file.parentId,
      type: 'file',
      name: file.name,
      mime: file.mime ?? 'text/plain',
      size: file.content.length,
      sha256: sha(file.content),
      updatedAt: `t-${sha(file.content)}`,
      canDownload: true,
      hasThumbnail: (file.mime ?? '').startsWith('image/'),
    };
  }

  private below(id: string): ManifestEntry[] {
    const out: ManifestEntry[] = [];
    for (const folder of this.folders.values()) if (folder.parentId === id) out.push(this.manifestEntry(folder.id)!, ...this.below(folder.id));
    for (const file of this.files.values()) if (file.parentId === id) out.push(this.manifestEntry(file.id)!);
    return out;
  }

  private listingEntry(id: string) {
    const entry = this.manifestEntry(id)!;
    return {
      id,
      hash: id,
      name: entry.name,
      type: entry.type === 'folder' ? 'folder' : 'text',
      parent_id: entry.parentId,
      file_size: entry.size,
      permissions: ['files.view'],
    };
  }

  fetch: typeof fetch = async (input, init) => {
    if (this.offline) throw new TypeError('Failed to fetch');
    const url = new URL(String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    this.requests.push({ path: url.pathname + url.search, headers });
    const manifest = /^\/api\/v1\/file-entries\/([^/]+)\/offline-manifest$/.exec(url.pathname);
    if (manifest) {
      if (this.refuse) return Response.json({ message: this.refuse.message }, { status: this.refuse.status });
      const root = this.manifestEntry(manifest[1]!);
      if (!root) return new Response('{}', { status: 404 });
      const etag = `W/"${this.version}"`;
      if (headers['if-none-match'] === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
      return Response.json({ root, entries: root.type === 'folder' ? this.below(root.id) : [] }, { headers: { ETag: etag } });
    }
    if (url.pathname === '/api/v1/drive/file-entries') {
      const folderId = url.searchParams.get('folderId')!;
      const ids = [...this.folders.values(), ...this.files.values()].filter((e) => e.parentId === folderId).map((e) => e.id);
      return Response.json({
        folder: { hash: folderId, name: this.folders.get(folderId)?.name ?? '', permissions: [] },
        pagination: { data: ids.map((id) => this.listingEntry(id)), next_cursor: null, total: ids.length },
      });
    }
    if (url.pathname === '/api/v1/file-entries/download') {
      const file = this.files.get(url.searchParams.get('hashes')!);
      if (!file) return new Response('{}', { status: 404 });
      const etag = `"${sha(file.content)}"`;
      const range = /^bytes=(\d+)-$/.exec(headers.range ?? '');
      const applies = range && (!headers['if-range'] || headers['if-range'] === etag);
      const start = applies ? Number(range[1]) : 0;
      const body = file.content.slice(start);
      return new Response(this.stream(body), { status: applies ? 206 : 200, headers: { ETag: etag, 'Content-Type': file.mime ?? 'text/plain' } });
    }
    const thumb = /^\/api\/v1\/file-entries\/([^/]+)\/thumbnail$/.exec(url.pathname);
    if (thumb) return new Response(`thumb of ${thumb[1]}`, { headers: { 'Content-Type': 'image/webp' } });
    if (url.pathname === '/api/v1/file-entries/read') {
      const { id } = JSON.parse(String(init?.body)) as { id: string };
      const file = this.files.get(id)!;
      return Response.json({ data: { sections: [file.content] }, version: sha(file.content), fileEntry: { name: file.name } });
    }
    return new Response('{}', { status: 404 });
  };

  private stream(body: string): ReadableStream<Uint8Array> {
    const bytes = new TextEncoder().encode(body);
    const cut = this.cutAfter;
    this.cutAfter = null;
    let sent = 0;
    return new ReadableStream({
      pull: (controller) => {
        if (cut !== null && sent >= cut) {
          controller.error(new TypeError('network error'));
          return;
        }
        const end = Math.min(bytes.length, sent + 4, cut ?? Infinity);
        controller.enqueue(bytes.slice(sent, end));
        this.bytesSent += end - sent;
        sent = end;
        if (sent >= bytes.length) controller.close();
      },
    });
  }
}
