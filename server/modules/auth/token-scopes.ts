import { parseJson } from '../../lib/json.js';

/**
 * What a personal access token may do. A stolen token must not own the
 * account: changing the sign-in email or deleting the account needs the
 * `account` scope (and the current password) on top of `write`.
 */
export const TOKEN_SCOPES = ['read', 'write', 'account'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const DEFAULT_SCOPES: TokenScope[] = ['read', 'write'];

export function parseScopes(stored: string): TokenScope[] {
  const list = parseJson<unknown[]>(stored, []);
  return TOKEN_SCOPES.filter((scope) => list.includes(scope));
}
