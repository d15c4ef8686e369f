import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError, MORE_ERRORS } from '../lib/errors.js';
import { translate, type Lines, type MessageValues } from '../lib/i18n.js';
import { attributeLabel, fieldFromPath, TYPE_NAMES } from '../lib/zod-messages.js';
import { linesFor } from './request-lines.js';

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
export async function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const lines = await linesFor(request);
    const errors: Record<string, string[]> = {};
    for (const issue of error.validation) {
      const field = fieldFromPath(issue.instancePath);
      const params = issue.params as { minimum?: unknown; maximum?: unknown; expected?: unknown };
      const values: MessageValues = { attribute: attributeName(lines, attributeLabel(field)) };
      if (params.minimum !== undefined) values.min = Number(params.minimum);
      if (params.maximum !== undefined) values.max = Number(params.maximum);
      if (typeof params.expected === 'string') values.type = translate(lines, TYPE_NAMES[params.expected] ?? params.expected);
      (errors[field] ??= []).push(sentence(translate(lines, issue.message ?? 'The :attribute field is invalid.', values)));
    }
    const messages = Object.values(errors).flat();
    const more = messages.length - 1;
    const message = more > 0 ? `${messages[0]} ${translate(lines, MORE_ERRORS, { count: more })}` : (messages[0] ?? translate(lines, GENERIC));
    return reply.code(422).send({ message, errors });
  }

  if (error instanceof HttpError) {
    // A failure of a service we call (502): the user sees the plain message, the log keeps the cause.
    if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.message);
    reply.headers(error.headers);
    return reply.code(error.statusCode).send(error.body(await linesFor(request)));
  }

  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
    return reply.code(500).send({ message: GENERIC });
  }

  const status = error.statusCode ?? 500;
  const lines = await linesFor(request);
  if (status >= 400 && status < 500) {
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    return reply.code(status).send({ message: known ? translate(lines, known) : error.message || translate(lines, GENERIC) });
  }

  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: translate(lines, GENERIC) });
}

/** A translation may start with the field's name ("e-posta alanı…"): sentences start upper case. */
const sentence = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** A field's name inside a sentence: its form label's line, in lower case ("First name" → "first name"). */
function attributeName(lines: Lines | null, label: string): string {
  const key = label.charAt(0).toUpperCase() + label.slice(1);
  const line = lines?.[key];
  return line ? line.toLocaleLowerCase() : label;
}
