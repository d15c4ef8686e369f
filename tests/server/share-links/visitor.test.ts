import { describe, expect, it } from 'vitest';
import { appWithOwner } from '../support/app-with-owner.js';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { multipartUpload } from '../uploads/support.js';
import { guest, linkPath, makeLink } from './support.js';
import { servicesOf } from '../support/services-handle.js';

describe('a share link, as its visitors see it', () => {
  const site = appWithOwner();

  async function folderWithFiles(name: string) {
    const folder = await createFolder(site.owner.client, name);
    const sub = await createFolder(site.owner.client, 'Inner', folder);
    const file = (await uploadFile(site.app, site.owner.user, { name: 'notes.txt', content: 'hello world', parentId: folder })).hash;
    const deep = (await uploadFile(site.app, site.owner.user, { name: 'deep.txt', content: 'deep', parentId: sub })).hash;
    const outside = (await uploadFile(site.app, site.owner.user, { name: 'private.txt', content: 'secret' })).hash;
    return { folder, sub, file, deep, outside };
  }

  it('shows a folder to a guest: its listing, sub-folders with crumbs, previews and downloads, nothing outside it', async () => {
    const fx = await folderWithFiles('Trip');
    const link = await makeLink(site.owner, fx.folder);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(link.url).toMatch(new RegExp(`/drive/s/${link.token}$`));
    const visitor = guest(site.app);

    const info = await visitor.get(linkPath(link.token));
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().link).toMatchObject({
      requires_password: false,
      allow_download: true,
      file_drop: false,
      entry: { hash: fx.folder, name: 'Trip', type: 'folder', permissions: ['files.view', 'files.download'] },
      owner_name: expect.stringMatching(/^Test User/),
    });
    expect(info.json().link.entry).not.toHaveProperty('owner_id');

    const listing = (await visitor.get(linkPath(link.token, '/entries?orderBy=name&orderDir=asc'))).json();
    expect(listing.pagination.data.map((e: { name: string }) => e.name)).toEqual(['Inner', 'notes.txt']);
    expect(listing.pagination.data[1].url).toBe(linkPath(link.token, `/preview/${fx.file}`));
    expect(listing.path.map((c: { name: string }) => c.name)).toEqual(['Trip']);

    const inner = (await visitor.get(linkPath(link.token, `/entries?folderId=${fx.sub}`))).json();
    expect(inner.pagination.data.map((e: { name: string }) => e.name)).toEqual(['deep.txt']);
    expect(inner.path.map((c: { name: string }) => c.name)).toEqual(['Trip', 'Inner']);

    const preview = await visitor.get(linkPath(link.token, `/preview/${fx.file}`));
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toBe('hello world');
    const download = await visitor.get(linkPath(link.token, `/download?hashes=${fx.deep}`));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    const zip = await visitor.get(linkPath(link.token, `/download?hashes=${fx.file},${fx.deep}`));
    expect(zip.headers['content-type']).toBe('application/zip');

    // Entries outside the linked folder are unknown through the link, whatever their id.
    expect((await visitor.get(linkPath(link.token, `/preview/${fx.outside}`))).statusCode).toBe(404);
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${fx.outside}`))).statusCode).toBe(404);
    expect((await visitor.get(linkPath(link.token, `/entries?folderId=${await createFolder(site.owner.client, 'Elsewhere')}`))).statusCode).toBe(404);
    // And the drive's own routes stay closed to a guest.
    expect((await visitor.get(`/api/v1/file-entries/${fx.file}/preview`)).statusCode).toBe(401);
  });

  it('answers an unknown, deleted, expired or trashed link with the same 404', async () => {
    const fx = await folderWithFiles('Gone');
    const visitor = guest(site.app);
    const expect404 = async (token: string) => {
      const response = await visitor.get(linkPath(token));
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('This link has expired or does not exist.');
    };
    await expect404('A'.repeat(24));

    const deleted = await makeLink(site.owner, fx.file);
    expect((await site.owner.client.request('DELETE', `/api/v1/share-links/${deleted.id}`)).statusCode).toBe(200);
    await expect404(deleted.token);

    const expiring = await makeLink(site.owner, fx.file, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await visitor.get(linkPath(expiring.token))).statusCode).toBe(200);
    await servicesOf(site.app)
      .db.kysely.updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expiring.id)
      .execute();
    await expect404(expiring.token);
    expect((await visitor.get(linkPath(expiring.token, `/download?hashes=${fx.file}`))).statusCode).toBe(404);

    const trashed = await makeLink(site.owner, fx.sub);
    await site.owner.client.post('/api/v1/file-entries/delete', { entryIds: [fx.sub] });
    await expect404(trashed.token);
  });

  it('keeps downloads off when the link says so, previews still allowed', async () => {
    const fx = await folderWithFiles('View only');
    const link = await makeLink(site.owner, fx.folder, { allowDownload: false });
    const visitor = guest(site.app);
    const info = (await visitor.get(linkPath(link.token))).json().link;
    expect(info.allow_download).toBe(false);
    expect(info.entry.permissions).toEqual(['files.view']);
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${fx.file}`))).statusCode).toBe(403);
    expect((await visitor.get(linkPath(link.token, `/preview/${fx.file}`))).statusCode).toBe(200);
  });

  it('serves markup through a link only as a download: an attachment, sandboxed (it has no preview)', async () => {
    const html = (await uploadFile(site.app, site.owner.user, { name: 'page.html', content: '<script>alert(1)</script>' })).hash;
    const link = await makeLink(site.owner, html);
    expect((await guest(site.app).get(linkPath(link.token, `/preview/${html}`))).statusCode).toBe(404);
    const download = await guest(site.app).get(linkPath(link.token, `/download?hashes=${html}`));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    expect(download.headers['content-security-policy']).toContain('sandbox');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });

  it('counts downloads atomically: of ten racing for the last one, exactly one gets it', async () => {
    const fx = await folderWithFiles('Limited');
    const link = await makeLink(site.owner, fx.file, { maxDownloads: 3 });
    const visitor = guest(site.app);
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${fx.file}`))).statusCode).toBe(200);
    expect((await guest(site.app).get(linkPath(link.token, `/download?hashes=${fx.file}`))).statusCode).toBe(200);
    // A visitor's later fetches of a file already counted for them (again, or a range of it) do not count again.
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${fx.file}`))).statusCode).toBe(200);
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${fx.file}`), { range: 'bytes=3-' })).statusCode).toBe(206);
    expect((await visitor.get(linkPath(link.token))).json().link.downloads_left).toBe(1);

    const racing = await Promise.all(Array.from({ length: 10 }, () => guest(site.app).get(linkPath(link.token, `/download?hashes=${fx.file}`))));
    const statuses = racing.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(9);
    const usedUp = await visitor.get(linkPath(link.token));
    expect(usedUp.statusCode).toBe(410);
    expect(usedUp.json().message).toBe('This link has reached its download limit.');
    const row = await servicesOf(site.app).db.kysely.selectFrom('share_links').select('download_count').where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(Number(row.download_count)).toBe(3);
  });

  describe('with a password', () => {
    it('shows no name or size before the password, and everything after it, for this link only', async () => {
      const fx = await folderWithFiles('Locked');
      const link = await makeLink(site.owner, fx.folder, { password: 'open sesame' });
      const other = await makeLink(site.owner, fx.sub, { password: 'open sesame' });
      const visitor = guest(site.app);

      const locked = await visitor.get(linkPath(link.token));
      expect(locked.statusCode).toBe(200);
      expect(locked.json().link).toMatchObject({ requires_password: true, entry: null, owner_name: null });
      expect(locked.body).not.toContain('Locked');
      for (const path of ['/entries', `/preview/${fx.file}`, `/download?hashes=${fx.file}`, `/thumbnail/${fx.file}`]) {
        const response = await visitor.get(linkPath(link.token, path));
        expect(response.statusCode, path).toBe(403);
        expect(response.json().message).toBe('This link is protected by a password.');
        expect(response.body).not.toContain('notes.txt');
      }

      const wrong = await visitor.post(linkPath(link.token, '/password'), { password: 'guess' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.password).toEqual(['The password is incorrect.']);
      expect(wrong.body).not.toContain('Locked');

      const right = await visitor.post(linkPath(link.token, '/password'), { password: 'open sesame' });
      expect(right.statusCode, right.body).toBe(200);
      expect(right.json().link).toMatchObject({ requires_password: false, entry: { name: 'Locked' } });
      const cookie = right.cookies.find((c) => c.name === 'link_access')!;
      expect(cookie).toMatchObject({ httpOnly: true, path: linkPath(link.token) });
      expect((await visitor.get(linkPath(link.token, '/entries'))).statusCode).toBe(200);

      // The unlock is bound to its link: the same cookie sent to another link does nothing.
      const replay = await guest(site.app).get(linkPath(other.token, '/entries'), { cookie: `link_access=${cookie.value}` });
      expect(replay.statusCode).toBe(403);
    });

    it('ends every unlock when the owner changes the password, and opens the link when it is removed', async () => {
      const fx = await folderWithFiles('Rotated');
      const link = await makeLink(site.owner, fx.folder, { password: 'first pass' });
      const visitor = guest(site.app);
      expect((await visitor.post(linkPath(link.token, '/password'), { password: 'first pass' })).statusCode).toBe(200);
      expect((await visitor.get(linkPath(link.token, '/entries'))).statusCode).toBe(200);

      const changed = await site.owner.client.request('PUT', `/api/v1/share-links/${link.id}`, { body: { password: 'second pass' } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await visitor.get(linkPath(link.token, '/entries'))).statusCode).toBe(403);

      await site.owner.client.request('PUT', `/api/v1/share-links/${link.id}`, { body: { password: null } });
      expect((await guest(site.app).get(linkPath(link.token, '/entries'))).statusCode).toBe(200);
    });

    it('throttles guesses per link and address, counted before they are compared', async () => {
      const fx = await folderWithFiles('Guarded');
      const link = await makeLink(site.owner, fx.folder, { password: 'right one' });
      const attacker = guest(site.app, '203.0.113.7');
      const answers = await Promise.all(Array.from({ length: 12 }, () => attacker.post(linkPath(link.token, '/password'), { password: 'wrong' })));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 422)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
      // Even the right password waits now, from that address; another address is not locked out.
      expect((await attacker.post(linkPath(link.token, '/password'), { password: 'right one' })).statusCode).toBe(429);
      expect((await guest(site.app, '198.51.100.9').post(linkPath(link.token, '/password'), { password: 'right one' })).statusCode).toBe(200);
    });

    it('slows guessing from many networks down rather than locking the link: the rightful visitor still gets in', async () => {
      const fx = await folderWithFiles('Besieged');
      const link = await makeLink(site.owner, fx.folder, { password: 'right one' });
      const guess = (address: string, password: string) => guest(site.app, address).post(linkPath(link.token, '/password'), { password });
      // 100 wrong guesses within the hour, 5 from each of 20 networks: each network's own allowance.
      for (let network = 0; network < 20; network += 1) {
        const answers = await Promise.all(Array.from({ length: 5 }, () => guess(`203.0.${network}.9`, 'wrong')));
        expect(answers.map((a) => a.statusCode)).toEqual([422, 422, 422, 422, 422]);
      }
      // Someone new with the right password is let in.
      const rightful = await guess('198.51.100.20', 'right one');
      expect(rightful.statusCode, rightful.body).toBe(200);
      // But past the link's hundred, a network gets 3 guesses an hour (not its usual 5 a quarter),
      // counted before they are compared.
      const slowed = (await Promise.all(Array.from({ length: 4 }, () => guess('192.0.2.44', 'wrong')))).map((a) => a.statusCode);
      expect(slowed.sort()).toEqual([422, 422, 422, 429]);
      expect((await guess('192.0.2.44', 'right one')).statusCode).toBe(429);
      expect((await guess('192.0.3.45', 'right one')).statusCode).toBe(200);
    });
  });

  it('answers as revoked while its maker is suspended, and works again once the suspension is lifted', async () => {
    const admin = await signedInUser(site.app, { roles: ['admin'] });
    const maker = await signedInUser(site.app);
    const folder = await createFolder(maker.client, 'Distributed');
    const file = (await uploadFile(site.app, maker.user, { name: 'flyer.txt', content: 'buy now', parentId: folder })).hash;
    const link = await makeLink(maker, folder);
    const usedUp = await makeLink(maker, file, { maxDownloads: 1 });
    const locked = await makeLink(maker, folder, { password: 'secret word' });
    expect((await guest(site.app).get(linkPath(usedUp.token, `/download?hashes=${file}`))).statusCode).toBe(200);
    const visitor = guest(site.app);
    expect((await visitor.get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(200);

    const suspend = (action: 'suspend' | 'unsuspend') => admin.client.post('/api/v1/admin/users/bulk-update', { ids: [maker.user.id], action });
    expect((await suspend('suspend')).statusCode).toBe(200);
    const calls = [
      visitor.get(linkPath(link.token)),
      visitor.get(linkPath(link.token, '/entries')),
      visitor.get(linkPath(link.token, `/preview/${file}`)),
      visitor.get(linkPath(link.token, `/download?hashes=${file}`)),
      visitor.get(linkPath(link.token, `/download?hashes=${file}`), { range: 'bytes=2-' }),
      visitor.get(linkPath(usedUp.token)),
      visitor.get(linkPath(locked.token)),
      visitor.post(linkPath(locked.token, '/password'), { password: 'secret word' }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('This link has expired or does not exist.');
    }

    expect((await suspend('unsuspend')).statusCode).toBe(200);
    expect((await visitor.get(linkPath(link.token))).statusCode).toBe(200);
    expect((await guest(site.app).get(linkPath(link.token, `/download?hashes=${file}`))).statusCode).toBe(200);
    expect((await visitor.get(linkPath(usedUp.token))).statusCode).toBe(410);
  });

  describe('as a file drop', () => {
    it('takes uploads into the folder, shows nothing in it, never overwrites, and charges the owner', async () => {
      const dropOwner = await signedInUser(site.app);
      const folder = await createFolder(dropOwner.client, 'Inbox');
      await uploadFile(site.app, dropOwner.user, { name: 'report.txt', content: 'original', parentId: folder });
      const link = await makeLink(dropOwner, folder, { fileDrop: true });
      const visitor = guest(site.app);

      const info = (await visitor.get(linkPath(link.token))).json().link;
      expect(info).toMatchObject({ file_drop: true, entry: { name: 'Inbox', file_size: 0, permissions: ['files.create'] } });
      expect((await visitor.get(linkPath(link.token, '/entries'))).statusCode).toBe(403);

      const { body, headers } = multipartUpload({ parentId: 'ignored' }, { name: 'report.txt', content: Buffer.from('from a guest') });
      const uploaded = await visitor.request('POST', linkPath(link.token, '/file-entries'), { body, headers });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      expect(uploaded.json()).toEqual({ message: 'Uploaded' });
      expect(uploaded.body).not.toContain('report (1)');

      const names = (await dropOwner.client.get(`/api/v1/drive/file-entries?folderId=${folder}&orderBy=name&orderDir=asc`)).json().pagination.data;
      expect(names.map((e: { name: string }) => e.name)).toEqual(['report (1).txt', 'report.txt']);
      const original = names.find((e: { name: string }) => e.name === 'report.txt');
      expect((await dropOwner.client.get(`/api/v1/file-entries/download?hashes=${original.hash}`)).body).toBe('original');
      const dropped = names.find((e: { name: string }) => e.name === 'report (1).txt');
      expect(dropped.owner_id).toBe(dropOwner.user.id);
      expect((await dropOwner.client.get('/api/v1/user/space-usage')).json().used).toBe('original'.length + 'from a guest'.length);
      // What others sent stays out of reach: no preview, no download through the drop.
      expect((await visitor.get(linkPath(link.token, `/preview/${dropped.hash}`))).statusCode).toBe(404);
      expect((await visitor.get(linkPath(link.token, `/download?hashes=${dropped.hash}`))).statusCode).toBe(404);
    });

    it("obeys the upload restrictions and the owner's quota", async () => {
      const dropOwner = await signedInUser(site.app);
      const folder = await createFolder(dropOwner.client, 'Small inbox');
      const link = await makeLink(dropOwner, folder, { fileDrop: true });
      const before = await servicesOf(site.app).settings.all();
      await servicesOf(site.app).settings.set({ 'uploads.available_space': 1000, 'uploads.blocked_extensions': ['exe'] });
      try {
        const visitor = guest(site.app);
        const big = multipartUpload({}, { name: 'big.bin', content: Buffer.alloc(5000) });
        const tooBig = await visitor.request('POST', linkPath(link.token, '/file-entries'), big);
        expect(tooBig.statusCode).toBe(413);
        const exe = multipartUpload({}, { name: 'tool.exe', content: Buffer.from('MZ') });
        expect((await visitor.request('POST', linkPath(link.token, '/file-entries'), exe)).statusCode).toBe(422);
        expect((await dropOwner.client.get('/api/v1/user/space-usage')).json().used).toBe(0);
      } finally {
        await servicesOf(site.app).settings.set({
          'uploads.available_space': before['uploads.available_space']!,
          'uploads.blocked_extensions': before['uploads.blocked_extensions']!,
        });
      }
    });

    it('refuses uploads through a link that is not a file drop', async () => {
      const fx = await folderWithFiles('Not a drop');
      const link = await makeLink(site.owner, fx.folder);
      const { body, headers } = multipartUpload({}, { name: 'x.txt', content: Buffer.from('x') });
      expect((await guest(site.app).request('POST', linkPath(link.token, '/file-entries'), { body, headers })).statusCode).toBe(403);
    });
  });
});
