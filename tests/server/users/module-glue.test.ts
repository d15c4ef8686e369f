import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../../server/db/types.js';
import type { Bootstrap } from '../../../server/modules/bootstrap/service.js';
import { bootstrapById, confirmById, permissionsLookup, tokenUserPermissions } from '../../../server/modules/users/index.js';
import type { UserWithAccess } from '../../../server/modules/users/repository.js';
import type { Permission } from '../../../server/modules/permissions/policy.js';

const upload: Permission = { name: 'files.create', restrictions: [] };
const row = (id: number) => ({ id, email: `u${id}@example.com` }) as unknown as UserRow;
const withAccess = async (user: UserRow) => ({ ...user, permissions: [upload] }) as unknown as UserWithAccess;

describe('the users module glue (issue 31.2: moved out of services.ts)', () => {
  it('permissionsLookup: a user’s permissions, none for a user who is gone', async () => {
    const lookup = permissionsLookup({ findWithAccess: async (id) => (id === 1 ? withAccess(row(1)) : null) });
    expect(await lookup(1)).toEqual([upload]);
    expect(await lookup(2)).toEqual([]);
  });

  it('tokenUserPermissions: null for a user who is gone, so WebDAV refuses the token', async () => {
    const lookup = tokenUserPermissions({ findWithAccess: async (id) => (id === 1 ? withAccess(row(1)) : null) });
    expect(await lookup(1)).toEqual([upload]);
    expect(await lookup(2)).toBeNull();
  });

  it('bootstrapById: the user’s bootstrap with the impersonator, the guest’s for null or a user who is gone', async () => {
    const calls: unknown[][] = [];
    const build = bootstrapById(
      { findById: async (id) => (id === 1 ? row(1) : undefined), withAccess },
      {
        build: async (...args) => {
          calls.push([args[0]?.id ?? null, args[1], args[2]]);
          return {} as Bootstrap;
        },
      },
    );
    await build(1, 'tr', 7);
    await build(null, 'en', null);
    await build(2, null, null);
    expect(calls).toEqual([
      [1, 'tr', 7],
      [null, 'en', null],
      [null, null, null],
    ]);
  });

  it('confirmById: the caller’s own proof goes to the account check; a caller who is gone is signed out', async () => {
    const checked: unknown[] = [];
    const confirm = confirmById(
      { findById: async (id) => (id === 1 ? row(1) : undefined) },
      {
        confirmAccountChange: async (user, proof) => void checked.push([user.id, proof]),
        confirmSecondFactor: async (user, proof) => void checked.push(['second factor', user.id, proof]),
      },
    );
    const proof = { via: 'session' as const, currentPassword: 'secret', signedInAt: null, tokenScopes: null, sessionToken: 's', ip: '127.0.0.1' };
    await confirm(1, proof);
    expect(checked).toEqual([[1, proof]]);
    // An admin's own second factor, where a route takes one (two-factor reset), is checked as one.
    const withCode = { ...proof, currentPassword: undefined, secondFactor: { method: 'totp' as const, code: '123456' } };
    await confirm(1, withCode);
    expect(checked.at(-1)).toEqual(['second factor', 1, withCode]);
    await expect(confirm(2, proof)).rejects.toMatchObject({ statusCode: 401 });
  });
});
