import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listNames, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTusUpload, patchTus } from './support.js';
import { servicesOf } from '../support/services-handle.js';

/** Issue 10 findings 4 and 5: a tus upload becomes one entry once, and a cancelled one frees its space. */
describe('finishing and cancelling resumable uploads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => servicesOf(t.app).settings.set({ 'uploads.max_size': 1024 * 1024, 'uploads.available_space': 1000 }));

  const reserved = async (userId: number) =>
    Number(
      (
        await servicesOf(t.app)
          .db.kysely.selectFrom('upload_reservations')
          .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
          .where('user_id', '=', userId)
          .executeTakeFirst()
      )?.bytes ?? 0,
    );

  it('finishes one upload exactly once when three finishes race', async () => {
    const { user, client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 5, { name: 'once.txt' })).headers.location as string;
    expect((await patchTus(client, location, 0, Buffer.from('hello'))).statusCode).toBe(204);
    const uploadKey = location.split('/').pop()!;

    const answers = await Promise.all([1, 2, 3].map(() => client.post('/api/v1/tus/entries', { uploadKey })));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 404, 404]);
    expect(await listNames(client, '')).toEqual(['once.txt']);
    expect(await reserved(user.id)).toBe(0);
    // The entry remembers who made it.
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['owner_id', 'created_by'])
      .where('name', '=', 'once.txt')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ owner_id: user.id, created_by: user.id });
  });

  it('an incomplete upload can be finished later: a failed finish gives the claim back', async () => {
    const { client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 10, { name: 'later.txt' })).headers.location as string;
    await patchTus(client, location, 0, Buffer.from('hello'));
    const uploadKey = location.split('/').pop()!;
    expect((await client.post('/api/v1/tus/entries', { uploadKey })).statusCode).toBe(409);
    await patchTus(client, location, 5, Buffer.from('world'));
    expect((await client.post('/api/v1/tus/entries', { uploadKey })).statusCode).toBe(200);
  });

  it('a cancelled upload gives its space back at once, and finishing it answers 404', async () => {
    const { user, client } = await signedInUser(t.app);
    const location = (await createTusUpload(client, 800, { name: 'big.bin' })).headers.location as string;
    await patchTus(client, location, 0, Buffer.alloc(100));
    expect(await reserved(user.id)).toBe(800);
    // 800 of 1000 bytes are reserved: a second upload of 300 does not fit.
    expect((await createTusUpload(client, 300, { name: 'second.bin' })).statusCode).toBe(413);

    expect((await client.request('DELETE', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode).toBe(204);
    expect(await reserved(user.id)).toBe(0);
    expect((await createTusUpload(client, 300, { name: 'second.bin' })).statusCode).toBe(201);
    const finish = await client.post('/api/v1/tus/entries', { uploadKey: location.split('/').pop()! });
    expect(finish.statusCode).toBe(404);
    expect(finish.json().message).toBe('This upload does not exist.');
  });
});
