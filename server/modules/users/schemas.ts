import { secondFactorProof } from '../auth/two-factor/proof.js';
import { z } from 'zod';
import { DEFAULT_SCOPES, TOKEN_SCOPES } from '../auth/token-scopes.js';
import { userSchema } from '../bootstrap/schemas.js';

const text = (max = 255) => z.string().trim().max(max).nullish();
const email = z.email().max(320);

export const updateProfileBody = z.object({
  first_name: text(),
  last_name: text(),
  email: email.optional(),
  email2: z.union([email, z.literal('')]).nullish(),
  company: text(),
  designation: text(),
  mobile: z
    .string()
    .trim()
    .max(32)
    .regex(/^\+?[0-9 ()./-]*$/, 'The mobile field must be a phone number, like +1 555 123 4567.')
    .nullish(),
  address: text(),
  city: text(),
  country: text(8),
  zipcode: text(32),
  language: text(16),
  timezone: text(64),
  current_password: z.string().max(1000).optional().describe('Needed to change the sign-in email'),
  second_factor: secondFactorProof,
});

export const changePasswordBody = z
  .object({
    current_password: z.string().min(1).max(1000),
    new_password: z.string().min(8).max(255),
    new_password_confirmation: z.string().min(1).max(255),
  })
  .refine((body) => body.new_password === body.new_password_confirmation, {
    path: ['new_password_confirmation'],
    message: 'The password confirmation does not match.',
  });

export const socialProfileSchema = z.object({
  id: z.number().int(),
  service_name: z.string(),
  username: z.string().nullable(),
  created_at: z.string(),
});

export const accessTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scopes: z.array(z.enum(TOKEN_SCOPES)).describe('read; write: any change; account: sign-in email and account deletion'),
    last_used_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AccessToken' });

export const userWithRelationsSchema = userSchema.extend({
  social_profiles: z.array(socialProfileSchema).optional(),
  tokens: z.array(accessTokenSchema).optional(),
});

export const userResponse = z.object({ user: userWithRelationsSchema });

export const userIdParams = z.object({ id: z.union([z.literal('me'), z.coerce.number().int().positive()]) });

export const deleteUserQuery = z.object({ deleteCurrentUser: z.enum(['true', 'false', '1', '0']).optional() });

/** Deleting an account asks the caller's current password (or a fresh sign-in), an admin's for someone else's too. */
export const deleteUserBody = z.object({ current_password: z.string().max(1000).optional(), second_factor: secondFactorProof }).nullish();

export const avatarUrlBody = z.object({ url: z.string().trim().min(1).max(2048) });

export const createTokenBody = z.object({
  name: z.string().trim().min(1).max(255),
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .min(1)
    .default([...DEFAULT_SCOPES])
    .describe('What the token may do; default read and write. Account changes need "account".'),
});
