/**
 * The error catalogue: every error the API answers with is one of these, so a
 * status and its wording are decided once. The error handler turns them into
 * `{ message, errors? }`.
 */
import { translate, type Lines, type MessageValues } from './i18n.js';

/** A message: fixed text, or a template with its values (translated for the caller on the way out). */
export type Message = string | { template: string; values: MessageValues };
export type FieldErrors = Record<string, Message[]>;

export const render = (message: Message, lines: Lines | null = null): string =>
  typeof message === 'string' ? translate(lines, message) : translate(lines, message.template, message.values);

export class HttpError extends Error {
  readonly template: Message;

  /** Headers the answer carries (Retry-After on 429). */
  headers: Record<string, string> = {};

  constructor(
    readonly statusCode: number,
    message: Message,
    readonly errors?: FieldErrors,
    readonly code?: string,
  ) {
    super(render(message));
    this.template = message;
    this.name = 'HttpError';
  }

  /** The answer's body in the caller's language. */
  body(lines: Lines | null): { message: string; errors?: Record<string, string[]> } {
    const message = render(this.template, lines);
    if (!this.errors) return { message };
    const errors = Object.fromEntries(Object.entries(this.errors).map(([field, list]) => [field, list.map((m) => render(m, lines))]));
    return { message, errors };
  }
}

/** Its English line has the singular form too ("(and 1 more error)"). */
export const MORE_ERRORS = '(and :count more errors)';

/** Laravel-style summary: the first message, and how many more there are. */
function summary(errors: FieldErrors, lines: Lines | null): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ? render(messages[0], lines) : translate(lines, 'The given data was invalid.');
  const more = messages.length - 1;
  return more > 0 ? `${first} ${translate(lines, MORE_ERRORS, { count: more })}` : first;
}

export class ValidationError extends HttpError {
  constructor(
    errors: FieldErrors,
    private readonly summaryMessage?: Message,
  ) {
    super(422, summaryMessage ?? summary(errors, null), errors, 'VALIDATION');
  }

  override body(lines: Lines | null) {
    const body = super.body(lines);
    return { ...body, message: this.summaryMessage ? render(this.summaryMessage, lines) : summary(this.errors ?? {}, lines) };
  }

  static field(field: string, message: string, values?: MessageValues): ValidationError {
    return new ValidationError({ [field]: [values ? { template: message, values } : message] });
  }
}

const withValues = (message: string, values?: MessageValues): Message => (values ? { template: message, values } : message);

export const Unauthenticated = (message = 'Unauthenticated.') => new HttpError(401, message, undefined, 'UNAUTHENTICATED');
export const Forbidden = (message = 'This action is unauthorized.', values?: MessageValues) =>
  new HttpError(403, withValues(message, values), undefined, 'FORBIDDEN');
export const NotFound = (message = 'Not found.') => new HttpError(404, message, undefined, 'NOT_FOUND');
export const Conflict = (message: string, values?: MessageValues) => new HttpError(409, withValues(message, values), undefined, 'CONFLICT');
/** A name the user typed is taken in its folder: 409 with the error on the name field. */
export function NameTaken(name: string): HttpError {
  const message: Message = { template: 'An item named ":name" already exists in this folder.', values: { name } };
  return new HttpError(409, message, { name: [message] }, 'NAME_TAKEN');
}
export const Gone = (message: string) => new HttpError(410, message, undefined, 'GONE');
export const LengthRequired = (message = 'The upload must declare its Content-Length.') => new HttpError(411, message, undefined, 'LENGTH_REQUIRED');
export const PreconditionFailed = (message: string, values?: MessageValues) =>
  new HttpError(412, withValues(message, values), undefined, 'PRECONDITION_FAILED');
export const UnsupportedMediaType = (message: string) => new HttpError(415, message, undefined, 'UNSUPPORTED_MEDIA_TYPE');
export const RangeNotSatisfiable = (message = 'The requested range is not within the file.') => new HttpError(416, message, undefined, 'RANGE_NOT_SATISFIABLE');
export const PayloadTooLarge = (message = 'The request body is too large.', values?: MessageValues) =>
  new HttpError(413, withValues(message, values), undefined, 'PAYLOAD_TOO_LARGE');
export const TooManyRequests = (message = 'Too many attempts. Please try again later.', values?: MessageValues) =>
  new HttpError(429, withValues(message, values), undefined, 'TOO_MANY_REQUESTS');
/** The header a CSRF refusal carries, so a client can tell it from other 403s whatever the message's language. */
export const XSRF_MISMATCH_HEADER = 'x-xsrf-mismatch';
export const CsrfMismatch = () => {
  const error = new HttpError(403, 'CSRF token mismatch. Please reload the page and try again.', undefined, 'CSRF');
  error.headers[XSRF_MISMATCH_HEADER] = '1';
  return error;
};
