import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { FileEntryRow } from '../../../server/db/types.js';
import { userActor, type UserActor } from '../../../server/modules/access/actor.js';
import { TestClient } from './client.js';
import { createUser, type CreatedUser } from './factories.js';
import { servicesOf } from './services-handle.js';

/** The user as the services see them: an actor with their site permissions. */
export async function actorFor(app: FastifyInstance, user: CreatedUser): Promise<UserActor> {
  const row = await servicesOf(app).users.findById(user.id);
  if (!row) throw new Error(`no user ${user.id}`);
  return userActor(row.id, (await servicesOf(app).users.withAccess(row)).permissions);
}

/** A new user with a signed-in client. */
export async function signedInUser(app: FastifyInstance, options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(servicesOf(app).db.kysely, options);
  const client = new TestClient(app);
  await client.login(user.email, user.password);
  return { user, client };
}

/**
 * A file created the way the drive stores uploads (until the upload calls
 * land): through `createFileFromStream`, from a stream of `content`.
 */
export async function uploadFile(
  app: FastifyInstance,
  user: CreatedUser,
  options: { name: string; content?: Buffer | string; parentId?: string | null; size?: number; createdAt?: string },
): Promise<FileEntryRow> {
  const content = typeof options.content === 'string' ? Buffer.from(options.content) : (options.content ?? Buffer.from(`content of ${options.name}`));
  const actor = await actorFor(app, user);
  return servicesOf(app).drive.files.createFileFromStream(actor, await servicesOf(app).drive.scope(actor, null), {
    parentId: options.parentId ?? null,
    name: options.name,
    stream: Readable.from([content]),
    size: options.size,
    createdAt: options.createdAt,
  });
}

/** A folder created through the API; returns its public hash. */
export async function createFolder(client: TestClient, name: string, parentId: string | null = null): Promise<string> {
  const response = await client.post('/api/v1/folders', { name, parentId });
  if (response.statusCode !== 200) throw new Error(`createFolder failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { folder: { hash: string } }).folder.hash;
}

export const pngBytes = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();

/** The listing's entries (first page) for a query string. */
export async function listNames(client: TestClient, query: string): Promise<string[]> {
  const response = await client.get(`/api/v1/drive/file-entries?${query}`);
  if (response.statusCode !== 200) throw new Error(`list failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { pagination: { data: { name: string }[] } }).pagination.data.map((e) => e.name);
}
