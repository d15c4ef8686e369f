import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

export interface FilePart {
  /** The text fields sent before the file (the spec's client sends the file last). */
  fields: Record<string, string>;
  name: string;
  mime: string | null;
  stream: Readable;
}

/** The HTTP edge of a plain upload: the first file part of a multipart body and the fields before it. */
export async function readFilePart(request: FastifyRequest, fileSizeLimit: number): Promise<FilePart | undefined> {
  const part = await request.file({ limits: { fileSize: fileSizeLimit, files: 1, fields: 10 } });
  if (!part) return undefined;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const field = Array.isArray(value) ? value[0] : value;
    if (field && field.type === 'field' && typeof field.value === 'string') fields[name] = field.value;
  }
  return { fields, name: part.filename, mime: part.mimetype || null, stream: part.file };
}
