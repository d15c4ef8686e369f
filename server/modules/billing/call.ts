import { HttpError } from '../../lib/errors.js';

/** A Stripe failure the user can do nothing about: 502 with a plain message, the details in the log. */
export function gatewayFailed(): HttpError {
  return new HttpError(502, 'The payment provider could not be reached. Please try again later.', undefined, 'GATEWAY');
}

/** A Stripe call; its failures become one plain 502 (the message names no internals). */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw Object.assign(gatewayFailed(), { cause: error });
  }
}
