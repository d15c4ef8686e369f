// One error type for every failed call, so screens never inspect ky or
// fetch internals. `kind` names the transport failures of spec §8.
export type ApiErrorKind = 'network' | 'timeout' | 'aborted' | 'badRequest' | 'badResponse' | 'canceled';

export interface ErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
  action?: { label: string; action: string };
}

export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly body: ErrorBody;

  constructor(kind: ApiErrorKind, status: number, body: ErrorBody = {}, message?: string) {
    super(message ?? body.message ?? kind);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
