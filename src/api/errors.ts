import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-error';

export const GENERIC_ERROR_MESSAGE = 'There was an issue. Please try again.';

/** The server's message when it gave one, otherwise the generic text (spec §8). */
export function getErrorMessage(error: unknown, fallback: string = GENERIC_ERROR_MESSAGE): string {
  if (isApiError(error) && error.body.message) return error.body.message;
  return fallback;
}

/** The first error the server reported for one field, if any. */
export function getFieldError(error: unknown, field: string): string | undefined {
  if (!isApiError(error)) return undefined;
  return error.body.errors?.[field]?.[0];
}

export function getErrorAction(error: unknown): { label: string; action: string } | undefined {
  return isApiError(error) ? error.body.action : undefined;
}

/**
 * Puts the server's field errors onto react-hook-form fields and focuses the
 * first one. Returns false when the error carried no field errors, so the
 * caller can fall back to a toast.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  /** Where a server field lives in the form, when the names differ (policy ids → `policies.<id>`). */
  mapField: (field: string) => string = (field) => field,
): boolean {
  if (!isApiError(error) || !error.body.errors) return false;
  let first = true;
  for (const [field, messages] of Object.entries(error.body.errors)) {
    const message = messages[0];
    if (!message) continue;
    setError(mapField(field) as Path<T>, { type: 'server', message }, { shouldFocus: first });
    first = false;
  }
  return !first;
}
