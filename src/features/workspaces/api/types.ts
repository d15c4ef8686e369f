import type { JsonResponse } from '../../../api/api-types';

// Wire shapes of the workspace calls (spec §3), named once from the server's OpenAPI document.

/** Spec §3 "Workspace": members and invites only when asked for (?with=members,invites). */
export type Workspace = JsonResponse<'/api/v1/workspace/{id}', 'get'>['workspace'];

/** Spec §3 "Member or invite row": `id` is the user's id for a member, the invite's id for an invite. */
export type MemberRow = NonNullable<Workspace['members']>[number];

/** Spec §3 "Workspace role". */
export type WorkspaceRole = JsonResponse<'/api/v1/workspace-roles', 'get'>['workspaceRoles'][number];
