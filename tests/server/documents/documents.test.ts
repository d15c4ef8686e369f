import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import type { CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { deepXml, entityXml, richHtml, wideXml, zipBomb } from './fixtures.js';
import { docxToText, htmlToDocx } from './libreoffice.js';

interface TextRun {
  type: 'text';
  text: string;
  fontAttributes: Record<string, unknown>;
  link?: string | null;
}
interface ImageRun {
  type: 'image';
  address: string;
  width?: number;
  height?: number;
}
type Run = TextRun | ImageRun;
interface ListItem {
  runs: Run[];
  subItems?: ListItem[];
}
interface Section {
  kind: string;
  runs: Run[];
  ordered?: boolean;
  items?: ListItem[];
}

const texts = (runs: Run[]) => runs.map((r) => (r.type === 'text' ? r.text : '')).join('');

/**
 * Documents made by LibreOffice (converted from HTML here, once per file)
 * read into sections, saved back as a new version of the same entry, and
 * opened again by LibreOffice; conditional saves; damaged and hostile files.
 */
describe('documents: read and save of stored .docx files', () => {
  let t: TestApp;
  let fixture: Buffer;
  let owner: { user: CreatedUser; client: TestClient };

  beforeAll(async () => {
    [t, fixture] = await Promise.all([createTestApp(), richHtml().then((html) => htmlToDocx(html, 'report'))]);
    owner = await signedInUser(t.app);
    // Minutes only on a machine that has to install LibreOffice first; seconds otherwise.
  }, 15 * 60_000);
  afterAll(() => t.close());

  const upload = (name: string, content: Buffer | string, parentId: string | null = null) => uploadFile(t.app, owner.user, { name, content, parentId });
  const read = (client: TestClient, id: string) => client.post('/api/v1/file-entries/read', { id });

  it('reads headings, run formatting, nested lists, a link and an image from a LibreOffice document', async () => {
    const entry = await upload('report.docx', fixture);
    const res = await read(owner.client, entry.hash);
    expect(res.statusCode, res.body).toBe(200);
    const { data, version, fileEntry } = res.json() as { data: Section[]; version: string; fileEntry: { name: string } };
    expect(version).toBe(entry.sha256);
    expect(fileEntry.name).toBe('report.docx');
    expect(data[0]).toMatchObject({ kind: 'heading1', runs: [{ type: 'text', text: 'Quarterly report' }] });
    expect(data[1]).toMatchObject({ kind: 'heading2', runs: [{ text: 'Summary' }] });
    const runs = data[2]!.runs as TextRun[];
    const run = (text: string) => runs.find((r) => r.text === text)!;
    expect(run('bold').fontAttributes).toMatchObject({ bold: true });
    expect(run('italic').fontAttributes).toMatchObject({ italic: true });
    expect(run('underlined').fontAttributes).toMatchObject({ underline: true });
    expect(run('red').fontAttributes).toMatchObject({ color: '#ff0000' });
    expect(run('large').fontAttributes).toMatchObject({ fontSize: 24 });
    expect(run('the source').link).toBe('https://example.com/report');
    // A javascript: href is not a link any more; its text stays.
    expect(runs.some((r) => r.link?.startsWith('javascript'))).toBe(false);
    expect(texts(runs)).toContain('not a link');
    expect(data[3]).toMatchObject({
      kind: 'list',
      ordered: false,
      items: [{ runs: [{ text: 'Apples' }], subItems: [{ runs: [{ text: 'Green apples' }] }] }, { runs: [{ text: 'Pears' }] }],
    });
    expect(data[4]).toMatchObject({ kind: 'list', ordered: true, items: [{ runs: [{ text: 'First step' }] }, { runs: [{ text: 'Second step' }] }] });
    const image = data[5]!.runs.find((r): r is ImageRun => r.type === 'image')!;
    expect(image).toMatchObject({ width: 40, height: 30 });
    expect(image.address).toMatch(new RegExp(`^/api/v1/file-entries/${entry.hash}/document-images/[a-f0-9]{32}\\.png$`));
    const served = await owner.client.get(image.address);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('saves an edit as a new version of the same entry; read → save → read keeps everything; LibreOffice opens it', async () => {
    const folder = await createFolder(owner.client, 'Reports');
    const entry = await upload('edit.docx', fixture, folder);
    const first = (await read(owner.client, entry.hash)).json() as { data: Section[]; version: string };
    const edited = structuredClone(first.data);
    (edited[2]!.runs as TextRun[]).unshift({ type: 'text', text: 'Edited online. ', fontAttributes: { bold: true } });
    const saved = await owner.client.post('/api/v1/file-entries/save', { id: entry.hash, version: first.version, content: edited });
    expect(saved.statusCode, saved.body).toBe(200);
    const { version, fileEntry } = saved.json() as { version: string; fileEntry: { id: string; file_size: number; updated_at: string } };
    expect(fileEntry.id).toBe(entry.hash);
    expect(version).not.toBe(first.version);
    expect(fileEntry.file_size).not.toBe(Number(entry.file_size));
    expect(fileEntry.updated_at >= entry.updated_at).toBe(true);

    const again = (await read(owner.client, entry.hash)).json() as { data: Section[]; version: string };
    expect(again.version).toBe(version);
    expect(again.data).toEqual(edited);

    // The folder above counts the new size.
    const listing = (await owner.client.get('/api/v1/drive/file-entries')).json() as { pagination: { data: { hash: string; file_size: number }[] } };
    expect(listing.pagination.data.find((e) => e.hash === folder)!.file_size).toBe(fileEntry.file_size);

    const download = await owner.client.get(`/api/v1/file-entries/download?hashes=${entry.hash}`);
    const text = await docxToText(download.rawPayload);
    expect(text).toContain('Edited online. Plain bold');
    expect(text).toContain('Quarterly report');
    expect(text).toContain('Green apples');
  }, 60_000);

  it('refuses a save from an older version with 409 and the current version, and writes nothing', async () => {
    const entry = await upload('race.docx', fixture);
    const { data, version } = (await read(owner.client, entry.hash)).json() as { data: Section[]; version: string };
    const one = await owner.client.post('/api/v1/file-entries/save', {
      id: entry.hash,
      version,
      content: [{ kind: 'paragraph', runs: [{ type: 'text', text: 'First', fontAttributes: {} }] }],
    });
    expect(one.statusCode).toBe(200);
    const stale = await owner.client.post('/api/v1/file-entries/save', { id: entry.hash, version: `"${version}"`, content: data });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().version).toBe(one.json().version);
    expect(stale.headers.etag).toBe(`"${one.json().version}"`);
    const now = (await read(owner.client, entry.hash)).json() as { data: Section[]; version: string };
    expect(now.version).toBe(one.json().version);
    expect(texts(now.data[0]!.runs)).toBe('First');
  });

  it('drops links of other protocols and images that are not the document’s or the drive’s own', async () => {
    const entry = await upload('safe.docx', fixture);
    const image = await upload('photo.png', await pngBytes(64, 48));
    const { version } = (await read(owner.client, entry.hash)).json() as { version: string };
    const content: Section[] = [
      {
        kind: 'paragraph',
        runs: [
          { type: 'text', text: 'evil', fontAttributes: {}, link: 'javascript:alert(1)' },
          { type: 'text', text: 'mail', fontAttributes: {}, link: 'mailto:a@example.com' },
          { type: 'image', address: 'http://169.254.169.254/latest/meta-data.png' },
          { type: 'image', address: `/api/v1/file-entries/${image.hash}/preview` },
        ],
      },
    ];
    const saved = await owner.client.post('/api/v1/file-entries/save', { id: entry.hash, version, content });
    expect(saved.statusCode, saved.body).toBe(200);
    const runs = ((await read(owner.client, entry.hash)).json() as { data: Section[] }).data[0]!.runs;
    expect(runs.filter((r) => r.type === 'text').map((r) => [r.text, r.link ?? null])).toEqual([
      ['evil', null],
      ['mail', 'mailto:a@example.com'],
    ]);
    const images = runs.filter((r): r is ImageRun => r.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ width: 64, height: 48 });
    expect(images[0]!.address).toContain(`/file-entries/${entry.hash}/document-images/`);
  });

  it('answers a clear error for files that are not documents, damaged ones and hostile packages, leaving them untouched', async () => {
    const cases: [string, Buffer | string, number][] = [
      ['notes.txt', 'plain text', 422],
      ['fake.docx', 'this is not a zip', 422],
      ['bomb.docx', await zipBomb(), 413],
      ['deep.docx', await deepXml(), 422],
      ['wide.docx', await wideXml(), 422],
      ['laughs.docx', await entityXml(), 422],
    ];
    for (const [name, content, status] of cases) {
      const entry = await upload(name, content);
      const res = await read(owner.client, entry.hash);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().message).toMatch(/not a Word document|damaged|too large/);
      const save = await owner.client.post('/api/v1/file-entries/save', { id: entry.hash, version: entry.sha256, content: [] });
      expect(save.statusCode).toBe(status);
      const after = await owner.client.get(`/api/v1/file-entries/download?hashes=${entry.hash}`);
      expect(after.rawPayload.equals(Buffer.isBuffer(content) ? content : Buffer.from(content))).toBe(true);
    }
  });

  it('creates an empty document in a folder, and saves a conflict copy beside the original', async () => {
    const folder = await createFolder(owner.client, 'Docs');
    const created = await owner.client.post('/api/v1/documents', { parentId: folder });
    expect(created.statusCode, created.body).toBe(200);
    const doc = created.json().fileEntry as { hash: string; name: string; parent_id: string };
    expect(doc).toMatchObject({ name: 'Untitled document.docx', parent_id: folder });
    const opened = (await read(owner.client, doc.hash)).json() as { data: Section[] };
    expect(opened.data).toEqual([{ kind: 'paragraph', runs: [] }]);

    const copy = await owner.client.post('/api/v1/file-entries/save-copy', {
      id: doc.hash,
      name: 'Untitled document (conflict 2026-11-25 14.05).docx',
      content: [{ kind: 'paragraph', runs: [{ type: 'text', text: 'Mine', fontAttributes: {} }] }],
    });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json().fileEntry).toMatchObject({ name: 'Untitled document (conflict 2026-11-25 14.05).docx', parent_id: folder });
    const copied = (await read(owner.client, copy.json().fileEntry.hash)).json() as { data: Section[] };
    expect(texts(copied.data[0]!.runs)).toBe('Mine');
  });
});
