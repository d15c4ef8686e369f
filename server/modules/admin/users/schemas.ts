import { z } from 'zod';
import { secondFactorProof } from '../../auth/two-factor/proof.js';
import { listQuery, pageSchema } from '../paging.js';
import { USER_SORTS } from './repository.js';

const name = z.string().trim().max(255).nullish();
const restriction = z.object({ name: z.string().max(64), value: z.union([z.string().max(255), z.number(), z.boolean(), z.null()]) });
const grant = z.object({ name: z.string().max(64), restrictions: z.array(restriction).max(20).optional() });
const role = z.object({ id: z.number().int(), name: z.string() });

export const userListQuery = listQuery(USER_SORTS).extend({
  roleId: z.coerce.number().int().positive().optional(),
  status: z.enum(['active', 'suspended', 'unverified']).optional(),
});

export const adminUserRow = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    display_name: z.string(),
    avatar: z.string().nullable(),
    email_verified_at: z.string().nullable(),
    suspended_at: z.string().nullable(),
    created_at: z.string(),
    last_active_at: z.string().nullable(),
    space_used: z.number(),
    space_available: z.number().nullable(),
    roles: z.array(role),
    two_factor: z.boolean().describe('Has a second factor: an authenticator app or a passkey'),
  })
  .meta({ id: 'AdminUserRow' });

export const userPage = pageSchema(adminUserRow);

export const adminUser = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    display_name: z.string(),
    avatar: z.string().nullable(),
    email_verified_at: z.string().nullable(),
    suspended_at: z.string().nullable(),
    created_at: z.string(),
    roles: z.array(role),
    permissions: z.array(z.object({ name: z.string(), restrictions: z.array(restriction) })),
    two_factor: z.boolean().describe('Has a second factor: an authenticator app or a passkey'),
    space: z.number().nullable(),
    space_available: z.number().nullable(),
  })
  .meta({ id: 'AdminUser' });

export const adminUserResponse = z.object({ user: adminUser });

/** The caller's own password, asked again before a sensitive change (issue 30 finding 8); a recent sign-in does for accounts without one. */
const currentPassword = z.string().max(1000).optional().describe('Your own password: needed to sign in as, delete, set a password or email, or grant admin');

const access = {
  roles: z.array(z.number().int().positive()).max(50).optional(),
  permissions: z.array(grant).max(100).optional(),
  space: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional().describe('Bytes; null: the role or site default'),
};

export const createUserBody = z.object({
  email: z.email().max(320),
  password: z.string().min(8).max(1000),
  first_name: name,
  last_name: name,
  verified: z.boolean().optional(),
  current_password: currentPassword,
  ...access,
});

export const updateUserBody = z.object({
  email: z.email().max(320).optional(),
  password: z.string().min(8).max(1000).optional(),
  first_name: name,
  last_name: name,
  current_password: currentPassword,
  ...access,
});

export const userIdParam = z.object({ id: z.coerce.number().int().positive() });
export const idsBody = z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) });
export const bulkUpdateBody = idsBody.extend({ action: z.enum(['suspend', 'unsuspend', 'verify']) });
export const deleteUsersBody = idsBody.extend({ current_password: currentPassword });
export const impersonateBody = z.object({ current_password: currentPassword }).nullish();
/** Your own fresh proof: your password, or a second factor of your own instead. */
export const resetTwoFactorBody = z.object({ current_password: currentPassword, second_factor: secondFactorProof }).nullish();
export const okResponse = z.object({ message: z.string() });
