import type { FastifyInstance } from 'fastify';
import type { TestClient } from '../support/client.js';
import { multipartUpload } from '../uploads/support.js';
import { servicesOf } from '../support/services-handle.js';

type Headers = Record<string, string>;

export const basic = (token: string): Headers => ({ authorization: `Basic ${Buffer.from(`someone:${token}`).toString('base64')}` });

export function dav(app: FastifyInstance, method: string, url: string, headers: Headers, body?: string | Buffer) {
  return app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: body } : {}) });
}

export async function davToken(app: FastifyInstance, userId: number): Promise<string> {
  return (await servicesOf(app).auth.accessTokens.create(userId, 'webdav', null, ['read', 'write'])).token;
}

/** A plain multipart upload through the API, replacing the file of that name when asked. */
export function upload(client: TestClient, name: string, content: string | Buffer, fields: Record<string, string> = {}) {
  const { body, headers } = multipartUpload(fields, { name, content: Buffer.isBuffer(content) ? content : Buffer.from(content) });
  return client.request('POST', '/api/v1/file-entries', { body, headers });
}

export interface VersionOut {
  id: number;
  file_size: number;
  sha256: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  download_url: string;
  preview_url: string | null;
}

export async function versionsOf(client: TestClient, hash: string): Promise<VersionOut[]> {
  const res = await client.get(`/api/v1/file-entries/${hash}/versions`);
  if (res.statusCode !== 200) throw new Error(`versions: ${res.statusCode} ${res.body}`);
  return (res.json() as { versions: VersionOut[] }).versions;
}

export async function contentOf(client: TestClient, hash: string): Promise<string> {
  return (await client.get(`/api/v1/file-entries/download?hashes=${hash}`)).body;
}
