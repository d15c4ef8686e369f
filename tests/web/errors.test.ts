import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import { applyFieldErrors, getErrorMessage, getFieldError } from '../../src/api/errors';

describe('error messages', () => {
  it("uses the server's message, else the generic one", () => {
    expect(getErrorMessage(new ApiError('badRequest', 403, { message: 'Nope' }))).toBe('Nope');
    expect(getErrorMessage(new ApiError('network', 0))).toBe('There was an issue. Please try again.');
    expect(getErrorMessage(new Error('x'))).toBe('There was an issue. Please try again.');
  });

  it('reads the first error of a field', () => {
    const error = new ApiError('badRequest', 422, { errors: { email: ['First', 'Second'] } });
    expect(getFieldError(error, 'email')).toBe('First');
    expect(getFieldError(error, 'password')).toBeUndefined();
  });

  it('maps field errors onto the form and focuses only the first', () => {
    const calls: { name: string; message: string | undefined; focus: boolean | undefined }[] = [];
    const error = new ApiError('badRequest', 422, { errors: { email: ['Taken'], password: ['Too short'] } });
    const applied = applyFieldErrors<{ email: string; password: string }>(error, (name, err, options) =>
      calls.push({ name, message: err.message, focus: options?.shouldFocus }),
    );
    expect(applied).toBe(true);
    expect(calls).toEqual([
      { name: 'email', message: 'Taken', focus: true },
      { name: 'password', message: 'Too short', focus: false },
    ]);
    expect(applyFieldErrors(new ApiError('network', 0), () => undefined)).toBe(false);
  });
});
