import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../lib/errors.js';
import { AVATAR_MAX_BYTES, type AvatarInput } from './avatars.js';
import { avatarUrlBody } from './schemas.js';

/** The HTTP edge of the avatar call: multipart with a "file" or a "url" field, or JSON with "url". */
export async function readAvatarInput(request: FastifyRequest): Promise<AvatarInput> {
  if (!request.isMultipart()) {
    const body = avatarUrlBody.safeParse(request.body);
    if (!body.success) throw ValidationError.field('url', 'Please select an image.');
    return { kind: 'url', url: body.data.url };
  }
  let url: string | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } })) {
      if (part.type === 'file') return { kind: 'file', bytes: await part.toBuffer() };
      if (part.fieldname === 'url' && typeof part.value === 'string') url = part.value;
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw ValidationError.field('avatar', 'The image may not be greater than 2 MB.');
    }
    throw error;
  }
  if (url) return { kind: 'url', url };
  throw ValidationError.field('avatar', 'Please select an image.');
}
