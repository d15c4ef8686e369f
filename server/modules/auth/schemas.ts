import { z } from 'zod';
import { bootstrapSchema } from '../bootstrap/schemas.js';

const email = z.email().max(320);
const newPassword = z.string().min(8).max(255);
const optionalText = z.string().trim().max(255).nullish();

const CONFIRMATION_MISMATCH = 'The password confirmation does not match.';

export const loginBody = z.object({
  email,
  password: z.string().min(1).max(1000),
  // Spec §9: "Login remember defaults on".
  remember: z.boolean().default(true),
});

export const registerBody = z
  .object({
    first_name: z.string().trim().min(1).max(255),
    last_name: z.string().trim().min(1).max(255),
    email,
    password: newPassword,
    password_confirmation: z.string().min(1).max(255),
    address: optionalText,
    city: optionalText,
    country: z.string().trim().max(8).nullish(),
    zipcode: z.string().trim().max(32).nullish(),
  })
  // One boolean per registration policy id (spec §3 "Registration payload").
  .catchall(z.unknown())
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password_confirmation'],
    message: CONFIRMATION_MISMATCH,
  });

export const forgotPasswordBody = z.object({ email });

export const resetPasswordBody = z
  .object({
    token: z.string().min(1).max(200),
    email,
    password: newPassword,
    password_confirmation: z.string().min(1).max(255),
  })
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password_confirmation'],
    message: CONFIRMATION_MISMATCH,
  });

export const verificationNotificationBody = z.object({ email: email.optional() });

export const verifyEmailQuery = z.object({ token: z.string().min(1).max(200) });

export const bootstrapDataResponse = z.object({ bootstrapData: bootstrapSchema });

/** `two_factor`: the password was right, and the sign-in waits for a second step (POST /auth/two-factor). */
export const loginResponse = bootstrapDataResponse.extend({
  two_factor: z.object({ methods: z.array(z.enum(['totp', 'recovery_code', 'passkey'])) }).optional(),
  two_factor_setup: z
    .literal(true)
    .optional()
    .describe('A role of the account requires two-factor sign-in and it has none: only its set-up is reachable, bootstrapData is a guest’s'),
});

export const registerResponse = loginResponse.omit({ two_factor: true }).extend({
  status: z.enum(['success', 'needs_email_verification']),
});

export const messageResponse = z.object({ message: z.string() });
