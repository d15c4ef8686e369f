import { z } from 'zod';

const restriction = z.object({ name: z.string().max(64), value: z.union([z.string().max(255), z.number(), z.boolean(), z.null()]) });
const grant = z.object({ name: z.string().max(64), restrictions: z.array(restriction).max(20).optional() });

export const adminRole = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(['sitewide', 'workspace']),
    guests: z.boolean(),
    default: z.boolean(),
    require_two_factor: z.boolean(),
    users_count: z.number().int(),
    permissions: z.array(z.object({ name: z.string(), restrictions: z.array(restriction) })),
  })
  .meta({ id: 'AdminRole' });

export const roleList = z.object({ roles: z.array(adminRole) });
export const roleResponse = z.object({ role: adminRole });

export const permissionList = z.object({
  permissions: z.array(
    z.object({
      name: z.string(),
      group: z.string(),
      display_name: z.string().nullable(),
      description: z.string().nullable(),
      restrictions: z.array(z.object({ name: z.string(), type: z.enum(['number', 'bool']), description: z.string() })),
    }),
  ),
});

export const roleBody = z.object({
  name: z.string().trim().min(2).max(100),
  description: z.string().trim().max(500).nullish(),
  type: z.enum(['sitewide', 'workspace']).default('sitewide'),
  default: z.boolean().optional().describe('Given to every new registration (one sitewide role)'),
  guests: z.boolean().optional().describe('Applies to visitors who are not signed in (one role)'),
  require_two_factor: z
    .boolean()
    .optional()
    .describe('Holders without a second factor are sent to set one up at sign-in and reach nothing else until they do (sitewide roles); absent: unchanged'),
  permissions: z.array(grant).max(200).default([]),
  current_password: z.string().max(1000).optional().describe('Your own password: needed when the role starts to carry admin'),
});

export const roleIdParam = z.object({ id: z.coerce.number().int().positive() });
