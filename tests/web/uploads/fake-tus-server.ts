import { makeEntry } from './helpers';

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  bodySize: number;
  credentials: RequestCredentials | undefined;
}

/**
 * A tus 1.0 server in memory behind a fetch function: creation, HEAD offsets,
 * PATCH with offset checks, and POST tus/entries. Enough protocol to prove
 * resuming and headers without a network.
 */
export function fakeTusServer(options: { failPatches?: number } = {}) {
  const uploads = new Map<string, { length: number; offset: number; metadata: string }>();
  const seen: SeenRequest[] = [];
  let failPatches = options.failPatches ?? 0;
  let next = 1;

  const fetchFn: typeof fetch = async (input, init = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const body = init.body;
    const bodySize = body instanceof Blob ? body.size : typeof body === 'string' ? body.length : 0;
    seen.push({ method, url: url.pathname + url.search, headers, bodySize, credentials: init.credentials });
    const tusHeaders = { 'Tus-Resumable': '1.0.0' };

    if (method === 'POST' && url.pathname === '/api/v1/tus/upload') {
      const key = `key${next++}`;
      uploads.set(key, { length: Number(headers['upload-length']), offset: 0, metadata: headers['upload-metadata'] ?? '' });
      return new Response(null, { status: 201, headers: { ...tusHeaders, Location: `/api/v1/tus/upload/${key}` } });
    }
    if (method === 'POST' && url.pathname === '/api/v1/tus/entries') {
      const { uploadKey } = JSON.parse(String(body)) as { uploadKey: string };
      const upload = uploads.get(uploadKey);
      if (!upload || upload.offset !== upload.length) return Response.json({ message: 'Upload is not complete' }, { status: 422 });
      return Response.json({ fileEntry: makeEntry(uploadKey) });
    }
    const key = url.pathname.split('/').pop() ?? '';
    const upload = uploads.get(key);
    if (!upload) return Response.json({ message: 'Not found' }, { status: 404 });
    if (method === 'HEAD') {
      return new Response(null, { status: 200, headers: { ...tusHeaders, 'Upload-Offset': String(upload.offset), 'Upload-Length': String(upload.length) } });
    }
    if (method === 'PATCH') {
      if (failPatches > 0) {
        failPatches -= 1;
        return Response.json({ message: 'Try again' }, { status: 500 });
      }
      if (Number(headers['upload-offset']) !== upload.offset) return new Response(null, { status: 409 });
      upload.offset += bodySize;
      return new Response(null, { status: 204, headers: { ...tusHeaders, 'Upload-Offset': String(upload.offset) } });
    }
    return new Response(null, { status: 405 });
  };

  return { fetch: fetchFn, uploads, seen };
}
