import { describe, expect, it } from 'vitest';
import { appWithOwner } from '../support/app-with-owner.js';
import { pngBytes, uploadFile } from '../support/drive-factories.js';
import { guest, linkPath, makeLink } from './support.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * What a download is through a link (issue 30, findings 2 and 3): any
 * response carrying a file's bytes, ranged or not, preview or not (a
 * thumbnail aside), counted once per visitor fetch; and a preview is never a
 * download in disguise.
 */
describe('downloads through a link', () => {
  const site = appWithOwner();

  const countOf = async (linkId: number) =>
    Number(
      (await servicesOf(site.app).db.kysely.selectFrom('share_links').select('download_count').where('id', '=', linkId).executeTakeFirstOrThrow())
        .download_count,
    );

  it('gives one copy for a limit of one: a range from byte 1 counts, a preview counts, and the rest are refused', async () => {
    const file = (await uploadFile(site.app, site.owner.user, { name: 'one copy.txt', content: 'the only copy' })).hash;
    const link = await makeLink(site.owner, file, { maxDownloads: 1 });
    const first = await guest(site.app).get(linkPath(link.token, `/download?hashes=${file}`), { range: 'bytes=1-' });
    expect(first.statusCode).toBe(206);
    expect(first.body).toBe('he only copy');
    expect(await countOf(link.id)).toBe(1);
    for (const [path, headers] of [
      [`/download?hashes=${file}`, { range: 'bytes=1-' }],
      [`/preview/${file}`, {}],
      [`/preview/${file}`, { range: 'bytes=4-' }],
      [`/download?hashes=${file}`, {}],
    ] as const) {
      const refused = await guest(site.app).get(linkPath(link.token, path), headers);
      expect(refused.statusCode, path).toBe(410);
      expect(refused.body).not.toContain('only copy');
    }
    expect(await countOf(link.id)).toBe(1);
  });

  it('counts a visitor once per file: their preview, download and resumed ranges are one fetch, their cookie only theirs', async () => {
    const file = (await uploadFile(site.app, site.owner.user, { name: 'clip.txt', content: '0123456789' })).hash;
    const link = await makeLink(site.owner, file, { maxDownloads: 1 });
    const visitor = guest(site.app);
    const preview = await visitor.get(linkPath(link.token, `/preview/${file}`));
    expect(preview.statusCode).toBe(200);
    const grant = preview.cookies.find((c) => c.name === 'link_fetch')!;
    expect(grant).toMatchObject({ httpOnly: true, path: linkPath(link.token) });
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${file}`), { range: 'bytes=4-' })).body).toBe('456789');
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(200);
    expect(await countOf(link.id)).toBe(1);
    // The link is used up for everyone else, and for this visitor too once the cookie is gone.
    expect((await guest(site.app).get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(410);
    visitor.cookies.delete('link_fetch');
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(410);

    // A grant is bound to its link and its file: sent to another used-up link, or asking for a zip, it counts as nothing.
    const other = await makeLink(site.owner, file, { maxDownloads: 1 });
    expect((await guest(site.app).get(linkPath(other.token, `/download?hashes=${file}`))).statusCode).toBe(200);
    expect((await guest(site.app).get(linkPath(other.token, `/download?hashes=${file}`), { cookie: `link_fetch=${grant.value}` })).statusCode).toBe(410);
    const sibling = (await uploadFile(site.app, site.owner.user, { name: 'sibling.txt', content: 'x' })).hash;
    const forged = await guest(site.app).get(linkPath(link.token, `/download?hashes=${sibling}`), { cookie: `link_fetch=${grant.value}` });
    expect(forged.statusCode).toBe(410);
    expect(await countOf(other.id)).toBe(1);
  });

  it('holds a limit under a 20-way race of downloads, ranges and previews: exactly the allowance gets bytes', async () => {
    const file = (await uploadFile(site.app, site.owner.user, { name: 'raced.txt', content: 'raced bytes' })).hash;
    const link = await makeLink(site.owner, file, { maxDownloads: 3 });
    const fetches = Array.from({ length: 20 }, (_, i) => {
      const path = i % 2 ? `/preview/${file}` : `/download?hashes=${file}`;
      return guest(site.app).get(linkPath(link.token, path), i % 3 ? { range: `bytes=${i % 5}-` } : {});
    });
    const statuses = (await Promise.all(fetches)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200 || s === 206)).toHaveLength(3);
    expect(statuses.filter((s) => s === 410)).toHaveLength(17);
    expect(await countOf(link.id)).toBe(3);
  });

  it('does not count thumbnails, and counts previews on a link without a limit too', async () => {
    const image = (await uploadFile(site.app, site.owner.user, { name: 'photo.png', content: await pngBytes(40, 30) })).hash;
    const link = await makeLink(site.owner, image, { maxDownloads: 1 });
    for (let i = 0; i < 3; i += 1) expect((await guest(site.app).get(linkPath(link.token, `/thumbnail/${image}`))).statusCode).toBe(200);
    expect(await countOf(link.id)).toBe(0);
    expect((await guest(site.app).get(linkPath(link.token, `/preview/${image}`))).statusCode).toBe(200);
    expect(await countOf(link.id)).toBe(1);

    const unlimited = await makeLink(site.owner, image);
    await guest(site.app).get(linkPath(unlimited.token, `/preview/${image}`));
    await guest(site.app).get(linkPath(unlimited.token, `/preview/${image}`), { range: 'bytes=10-' });
    expect(await countOf(unlimited.id)).toBe(2);
  });

  describe('previews', () => {
    const binary = Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 42]);

    it('has none for a kind without one, so download off protects every file', async () => {
      const file = (await uploadFile(site.app, site.owner.user, { name: 'secret.bin', content: binary })).hash;
      const entry = await servicesOf(site.app).db.kysely.selectFrom('file_entries').select('mime').where('hash', '=', file).executeTakeFirstOrThrow();
      expect(entry.mime).toBe('application/octet-stream');
      const link = await makeLink(site.owner, file, { allowDownload: false });
      const visitor = guest(site.app);
      expect((await visitor.get(linkPath(link.token))).json().link.entry.url).toBeNull();
      const preview = await visitor.get(linkPath(link.token, `/preview/${file}`));
      expect(preview.statusCode).toBe(404);
      expect(preview.json().message).toBe('This file has no preview.');
      expect((await visitor.get(linkPath(link.token, `/preview/${file}`), { range: 'bytes=0-' })).statusCode).toBe(404);
      expect((await visitor.get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(403);
    });

    it('has none for markup either, and shows the kinds that have one inline, never as an attachment', async () => {
      const html = (await uploadFile(site.app, site.owner.user, { name: 'page.html', content: '<script>alert(1)</script>' })).hash;
      const svg = (await uploadFile(site.app, site.owner.user, { name: 'logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"/>' })).hash;
      for (const hash of [html, svg]) {
        const link = await makeLink(site.owner, hash);
        expect((await guest(site.app).get(linkPath(link.token, `/preview/${hash}`))).statusCode).toBe(404);
      }
      const text = (await uploadFile(site.app, site.owner.user, { name: 'notes.md', content: '# <b>hi</b>' })).hash;
      const image = (await uploadFile(site.app, site.owner.user, { name: 'dot.png', content: await pngBytes(4, 4) })).hash;
      for (const [hash, type] of [
        [text, 'text/plain; charset=utf-8'],
        [image, 'image/png'],
      ] as const) {
        const link = await makeLink(site.owner, hash, { allowDownload: false });
        const preview = await guest(site.app).get(linkPath(link.token, `/preview/${hash}`));
        expect(preview.statusCode).toBe(200);
        expect(preview.headers['content-type']).toBe(type);
        expect(preview.headers['content-disposition']).toMatch(/^inline/);
        expect(preview.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  });
});
