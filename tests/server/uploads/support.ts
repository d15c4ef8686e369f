import type { TestClient } from '../support/client.js';

export const b64 = (value: string) => Buffer.from(value).toString('base64');

export const tusMetadata = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

/** Creates a tus upload and answers its path (`/api/v1/tus/upload/<id>`). */
export async function createTusUpload(client: TestClient, length: number, meta: Record<string, string>) {
  const res = await client.request('POST', '/api/v1/tus/upload', {
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': tusMetadata(meta) },
  });
  return res;
}

export function patchTus(client: TestClient, location: string, offset: number, body: Buffer, headers: Record<string, string> = {}) {
  return client.request('PATCH', location, {
    body,
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers },
  });
}

/** A multipart body with fields first and the file last, as the browser sends it. */
export function multipartUpload(fields: Record<string, string>, file: { name: string; type?: string; content: Buffer }) {
  const boundary = '----drive-upload-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const body = Buffer.concat(parts);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) } };
}
