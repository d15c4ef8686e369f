/**
 * The error catalogue: every error the API answers with is one of these, so a
 * status and its wording are decided once. The error handler turns them into
 * `{ message, errors? }`.
 */
export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export class ValidationError extends HttpError {
  constructor(errors: FieldErrors, message?: string) {
    super(422, message ?? summarise(errors), errors, 'VALIDATION');
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

export const Unauthenticated = (message = 'Unauthenticated.') => new HttpError(401, message, undefined, 'UNAUTHENTICATED');
export const Forbidden = (message = 'This action is unauthorized.') => new HttpError(403, message, undefined, 'FORBIDDEN');
export const NotFound = (message = 'Not found.') => new HttpError(404, message, undefined, 'NOT_FOUND');
export const Conflict = (message: string) => new HttpError(409, message, undefined, 'CONFLICT');
export const PayloadTooLarge = (message = 'The request body is too large.') =>
  new HttpError(413, message, undefined, 'PAYLOAD_TOO_LARGE');
export const TooManyRequests = (message = 'Too many attempts. Please try again later.') =>
  new HttpError(429, message, undefined, 'TOO_MANY_REQUESTS');
export const CsrfMismatch = () => new HttpError(403, 'CSRF token mismatch. Please reload the page and try again.', undefined, 'CSRF');

/** Laravel-style summary: the first message, and how many more there are. */
function summarise(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
}
