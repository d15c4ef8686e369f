import { z } from 'zod';
import { bootstrapSchema } from '../bootstrap/schemas.js';

export const loginBody = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1000),
  // Spec §9: "Login remember defaults on".
  remember: z.boolean().default(true),
});

export const bootstrapDataResponse = z.object({ bootstrapData: bootstrapSchema });
