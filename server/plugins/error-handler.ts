import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError, type FieldErrors } from '../lib/errors.js';
import { attributeLabel, fieldFromPath } from '../lib/zod-messages.js';

const GENERIC = 'There was an issue. Please try again.';

/** Fastify's own client errors, reworded for people. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not supported.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

/**
 * Every error leaves as `{ message, errors? }` (spec §7/§8, DESIGN §4): 422
 * with a field map for validation, the catalogue's status otherwise, and
 * never a stack trace.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldErrors = {};
    for (const issue of error.validation) {
      const field = fieldFromPath(issue.instancePath);
      const message = (issue.message ?? 'The :attribute field is invalid.').replace(/:attribute/g, attributeLabel(field));
      (errors[field] ??= []).push(message);
    }
    const messages = Object.values(errors).flat();
    const more = messages.length - 1;
    const message = more > 0 ? `${messages[0]} (and ${more} more ${more === 1 ? 'error' : 'errors'})` : (messages[0] ?? GENERIC);
    return reply.code(422).send({ message, errors });
  }

  if (error instanceof HttpError) {
    return reply.code(error.statusCode).send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
  }

  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
    return reply.code(500).send({ message: GENERIC });
  }

  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = (error.code && FASTIFY_MESSAGES[error.code]) || error.message || GENERIC;
    return reply.code(status).send({ message });
  }

  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: GENERIC });
}
