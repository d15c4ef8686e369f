import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.js';
import { actorFor, createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { addMember, createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { htmlToDocx } from '../documents/libreoffice.js';
import { docxBomb, pdfOf } from './fixtures.js';
import { EXTRACT_LIMITS } from '../../../server/modules/search/extract.js';

interface Listed {
  id: string;
  name: string;
  type: string;
  content_match?: { segments: { text: string; match: boolean }[] } | null;
}

/** Content search (issue 35): the drive listing's `content=true`, on the real job queue and the dialect's index. */
describe(`content search (${DIALECT})`, () => {
  let t: TestApp;
  let docx: Buffer;
  let turkishDocx: Buffer;
  // The fixtures are made before the tests: one LibreOffice conversion with a fresh profile took 10 s on a
  // machine running the rest of the suite, and 32 s at load 17, which a test's own 20 s cannot hold.
  beforeAll(async () => {
    t = await createTestApp();
    docx = await htmlToDocx('<html><body><h1>Archive rules</h1><p>Our retention policy keeps mail for one year.</p></body></html>');
    turkishDocx = await htmlToDocx('<html><body><p>Işık ve ılık rüzgâr, İzmir.</p></body></html>');
  }, 180_000);
  afterAll(() => t.close());

  const settled = () => servicesOf(t.app).jobs.idle();
  const search = async (client: TestClient, query: string, extra = ''): Promise<Listed[]> => {
    const response = await client.get(`/api/v1/drive/file-entries?query=${encodeURIComponent(query)}&content=true${extra}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().pagination.data as Listed[];
  };
  const names = (rows: Listed[]) => rows.map((r) => r.name).sort();
  const marked = (row: Listed | undefined) => row?.content_match?.segments.filter((s) => s.match).map((s) => s.text) ?? [];
  const contentRow = (entryId: number) =>
    servicesOf(t.app).db.kysely.selectFrom('file_contents').selectAll().where('entry_id', '=', entryId).executeTakeFirst();

  it('finds a word inside a .docx and a PDF, with a snippet of plain segments; without content=true only names match', async () => {
    const { user, client } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'rules.docx', content: docx });
    await uploadFile(t.app, user, { name: 'report.pdf', content: await pdfOf(['Quarterly figures', 'The retention of customers rose.']) });
    await uploadFile(t.app, user, { name: 'retention-notes.png', content: Buffer.from('not really a png') });
    await uploadFile(t.app, user, { name: 'other.md', content: '# Nothing to see' });
    await settled();

    const rows = await search(client, 'retention');
    expect(names(rows)).toEqual(['report.pdf', 'retention-notes.png', 'rules.docx']);
    const docxRow = rows.find((r) => r.name === 'rules.docx');
    expect(marked(docxRow)).toEqual(['retention']);
    expect(docxRow!.content_match!.segments.map((s) => s.text).join('')).toContain('Our retention policy keeps mail');
    expect(marked(rows.find((r) => r.name === 'report.pdf'))).toEqual(['retention']);
    // A name match keeps working, and says it is not about the content.
    expect(rows.find((r) => r.name === 'retention-notes.png')!.content_match).toBeNull();
    // Word prefixes, every word of the query, and the existing filters on top.
    expect(names(await search(client, 'retent polic'))).toEqual(['rules.docx']);
    expect(names(await search(client, 'retention', '&type=pdf'))).toEqual(['report.pdf']);
    expect(names(await search(client, 'quarterly customers'))).toEqual(['report.pdf']);

    const plain = (await client.get('/api/v1/drive/file-entries?query=retention')).json().pagination.data as Listed[];
    expect(names(plain)).toEqual(['retention-notes.png']);
    expect(plain[0]).not.toHaveProperty('content_match');
  });

  it('folds Turkish dotted and dotless i: "istanbul" finds İSTANBUL, "ılık" finds ILIK', async () => {
    const { user, client } = await signedInUser(t.app);
    await uploadFile(t.app, user, { name: 'hava.txt', content: 'BUGÜN İSTANBUL HAVASI ILIK VE GÜNEŞLİ' });
    await uploadFile(t.app, user, { name: 'notlar.docx', content: turkishDocx });
    await settled();
    const istanbul = await search(client, 'istanbul');
    expect(names(istanbul)).toEqual(['hava.txt']);
    expect(marked(istanbul[0])).toEqual(['İSTANBUL']);
    expect(names(await search(client, 'ılık'))).toEqual(['hava.txt', 'notlar.docx']);
    expect(names(await search(client, 'ILIK'))).toEqual(['hava.txt', 'notlar.docx']);
    expect(names(await search(client, 'IŞIK izmir ruzgar'))).toEqual(['notlar.docx']);
    expect(names(await search(client, 'güneşli'))).toEqual(['hava.txt']);
  });

  it('never shows another person’s files; a share and a workspace are searched through their own rules', async () => {
    const roles = await workspaceRoles((await signedInUser(t.app)).client);
    const owner = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const friend = await signedInUser(t.app);
    const member = await signedInUser(t.app);
    await uploadFile(t.app, owner.user, { name: 'private.txt', content: 'the zanzibar plan' });
    const folder = await createFolder(owner.client, 'Shared plans');
    await uploadFile(t.app, owner.user, { name: 'shared.txt', content: 'zanzibar, shared', parentId: folder });
    const shared = await owner.client.post('/api/v1/file-entries/shares', { entryIds: [folder], emails: [friend.user.email], permission: 'view' });
    expect(shared.statusCode, shared.body).toBe(200);
    const workspaceId = await createWorkspace(owner.client);
    await addMember(t.app, t.dataDir, owner.client, workspaceId, member, roles.viewer);
    const { body, headers } = multipartUpload({ parentId: '0' }, { name: 'team.txt', content: Buffer.from('zanzibar for the team') });
    expect((await owner.client.request('POST', `/api/v1/file-entries?workspaceId=${workspaceId}`, { body, headers })).statusCode).toBe(200);
    await uploadFile(t.app, stranger.user, { name: 'strangers.txt', content: 'my own zanzibar' });
    await settled();

    expect(names(await search(owner.client, 'zanzibar'))).toEqual(['private.txt', 'shared.txt']);
    expect(names(await search(stranger.client, 'zanzibar'))).toEqual(['strangers.txt']);
    // The friend finds the shared file inside the shared folder, and nothing of the owner's elsewhere.
    expect(names(await search(friend.client, 'zanzibar'))).toEqual([]);
    expect(names(await search(friend.client, 'zanzibar', `&folderId=${folder}`))).toEqual(['shared.txt']);
    expect((await friend.client.get(`/api/v1/drive/file-entries?query=zanzibar&content=true&workspaceId=${workspaceId}`)).statusCode).toBe(404);
    // The member finds the workspace's file in the workspace, and nothing personal.
    expect(names(await search(member.client, 'zanzibar', `&workspaceId=${workspaceId}`))).toEqual(['team.txt']);
    expect(names(await search(member.client, 'zanzibar'))).toEqual([]);
    expect(names(await search(owner.client, 'zanzibar', `&workspaceId=${workspaceId}`))).toEqual(['team.txt']);
    // A stranger naming someone's folder gets no answer from it.
    expect((await stranger.client.get(`/api/v1/drive/file-entries?query=zanzibar&content=true&folderId=${folder}`)).statusCode).toBe(404);
  });

  it('reads the text again when the bytes change: a replacement, a document save, a version restore; and drops it on purge', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'draft.txt', content: 'first walrus draft' });
    await settled();
    expect(names(await search(client, 'walrus'))).toEqual(['draft.txt']);

    const actor = await actorFor(t.app, user);
    await servicesOf(t.app).drive.files.replaceFromStream(actor, file.hash, { stream: Readable.from([Buffer.from('second narwhal draft')]) });
    await settled();
    expect(names(await search(client, 'walrus'))).toEqual([]);
    expect(names(await search(client, 'narwhal'))).toEqual(['draft.txt']);

    const versions = (await client.get(`/api/v1/file-entries/${file.hash}/versions`)).json().versions as { id: number }[];
    expect((await client.post(`/api/v1/file-entries/${file.hash}/versions/${versions[0]!.id}/restore`)).statusCode).toBe(200);
    await settled();
    expect(names(await search(client, 'walrus'))).toEqual(['draft.txt']);
    expect(names(await search(client, 'narwhal'))).toEqual([]);

    const doc = (await client.post('/api/v1/documents', { parentId: null, name: 'Memo' })).json().fileEntry as { id: string };
    const read = (await client.post('/api/v1/file-entries/read', { id: doc.id })).json() as { version: string };
    const content = [{ kind: 'paragraph', runs: [{ type: 'text', text: 'Minutes about the pelican budget', fontAttributes: {} }] }];
    expect((await client.post('/api/v1/file-entries/save', { id: doc.id, version: read.version, content })).statusCode).toBe(200);
    await settled();
    const found = await search(client, 'pelican');
    expect(names(found)).toEqual(['Memo.docx']);
    expect(marked(found[0])).toEqual(['pelican']);

    const deleted = await client.post('/api/v1/file-entries/delete', { entryIds: [file.hash], deleteForever: true });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await contentRow(file.id)).toBeUndefined();
    if (DIALECT === 'sqlite') {
      const left = await sql<{ n: number }>`select count(*) as n from file_contents_search where file_contents_search match 'walrus'`.execute(
        servicesOf(t.app).db.kysely,
      );
      expect(Number(left.rows[0]!.n)).toBe(0);
    }
  });

  it('forgets the text of a file whose new bytes are no text (an image saved over notes.txt)', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'notes.txt', content: 'the albatross notes' });
    await settled();
    expect(names(await search(client, 'albatross'))).toEqual(['notes.txt']);
    await servicesOf(t.app).drive.files.replaceFromStream(await actorFor(t.app, user), file.hash, { stream: Readable.from([await pngBytes(4, 4)]) });
    await settled();
    expect(names(await search(client, 'albatross'))).toEqual([]);
    expect(await contentRow(file.id)).toBeUndefined();
  });

  it('refuses hostile or huge files with a status, indexing nothing, and cuts a long text at the limit', async () => {
    const { user, client } = await signedInUser(t.app);
    const bomb = await uploadFile(t.app, user, { name: 'bomb.docx', content: docxBomb(EXTRACT_LIMITS.docxXmlBytes + 1024) });
    const broken = await uploadFile(t.app, user, { name: 'broken.pdf', content: Buffer.from('%PDF-1.7\nnot really') });
    const long = await uploadFile(t.app, user, { name: 'long.txt', content: `${'filler '.repeat(200_000)} beyondthelimit` });
    await settled();
    expect(await contentRow(bomb.id)).toMatchObject({ status: 'too_large', text: '' });
    expect((await contentRow(broken.id))?.status).toMatch(/failed|empty/);
    const longRow = (await contentRow(long.id))!;
    expect(longRow).toMatchObject({ status: 'ok', truncated: 1 });
    expect(Buffer.byteLength(longRow.text)).toBeLessThanOrEqual(EXTRACT_LIMITS.textBytes);
    expect(names(await search(client, 'beyondthelimit'))).toEqual([]);
    expect(names(await search(client, 'filler'))).toEqual(['long.txt']);
  });
});
