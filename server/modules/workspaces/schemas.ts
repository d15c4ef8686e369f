import { z } from 'zod';

/** The wire contract of the workspace calls (spec §3, §7). */

export const WORKSPACE_NAME_MIN = 3;
export const MAX_INVITES_PER_CALL = 50;

const name = z.string().trim().min(WORKSPACE_NAME_MIN).max(100);
export const workspaceNameBody = z.object({ name });

const id = z.coerce.number().int().positive();
export const workspaceParams = z.object({ workspaceId: id });
export const workspaceIdParams = z.object({ id });
export const inviteParams = z.object({ inviteId: z.string().min(1).max(64) });
export const workspaceInviteParams = workspaceParams.extend({ inviteId: z.string().min(1).max(64) });
export const memberParams = workspaceParams.extend({ memberId: id });
export const changeRoleParams = workspaceParams.extend({ modelType: z.enum(['member', 'invite']), id: z.string().min(1).max(64) });

export const roleBody = z.object({ roleId: z.coerce.number().int().positive() });
export const inviteBody = roleBody.extend({
  emails: z
    .array(z.email().max(320))
    .min(1)
    .max(MAX_INVITES_PER_CALL)
    .transform((emails) => [...new Set(emails.map((email) => email.trim().toLowerCase()))]),
});

export const WORKSPACE_RELATIONS = ['members', 'invites'] as const;
export type WorkspaceRelation = (typeof WORKSPACE_RELATIONS)[number];

/** `?with=members,invites` (or repeated): only these relations are ever loaded. */
export const workspaceQuery = z.object({
  with: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) =>
      (Array.isArray(value) ? value : value ? [value] : [])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(WORKSPACE_RELATIONS))),
});

const memberRow = z.object({
  model_type: z.enum(['member', 'invite']),
  id: z.union([z.number().int(), z.string()]).describe("The user's id for a member, the invite's id for an invite"),
  member_id: z.number().int().optional().describe('The membership id (members only): what role changes and removal name'),
  display_name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role_id: z.number().int().nullable(),
  role_name: z.string().nullable(),
  is_owner: z.boolean(),
  permissions: z.array(z.object({ name: z.string() })),
});
export type MemberRowOut = z.infer<typeof memberRow>;

export const workspaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  default: z.boolean(),
  owner_id: z.number().int().nullable(),
  members_count: z.number().int(),
  members: z.array(memberRow).optional(),
  invites: z.array(memberRow).optional(),
});
export type WorkspaceOut = z.infer<typeof workspaceSchema>;

export const workspaceRoleSchema = z.object({ id: z.number().int(), name: z.string(), description: z.string().nullable() });

export const messageResponse = z.object({ message: z.string() });
export const workspaceResponse = z.object({ workspace: workspaceSchema });
export const invitePreviewResponse = z.object({
  invite: z.object({
    workspace: z.object({ id: z.number(), name: z.string() }),
    inviter: z.string().nullable().describe("The inviter's name (or address); null when their account is gone"),
  }),
});
export const workspaceMessageResponse = workspaceResponse.extend({ message: z.string() });
