import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { render } from '../../lib/errors.js';
import { assertUser, currentActor, requirePermission } from '../../plugins/guards.js';
import { linesFor } from '../../plugins/request-lines.js';
import {
  changeRoleParams,
  inviteBody,
  inviteParams,
  invitePreviewResponse,
  memberParams,
  messageResponse,
  roleBody,
  workspaceIdParams,
  workspaceInviteParams,
  workspaceMessageResponse,
  workspaceNameBody,
  workspaceParams,
  workspaceQuery,
  workspaceResponse,
  workspaceRoleSchema,
  workspaceSchema,
} from './schemas.js';
import type { WorkspacesService } from './service.js';

const tags = ['workspaces'];
const INVITE_PREVIEW = '/workspace/invite/:inviteId';

/** The spec's success line (§7), in the caller's language. */
const say = async (request: FastifyRequest, message: string) => render(message, await linesFor(request));

/** Team workspaces (spec §7): every call needs a signed-in user; the access policy decides the rest. */
export const workspaceRoutes: FastifyPluginAsyncZod<{ workspaces: WorkspacesService }> = async (app, { workspaces }) => {
  // The one exception: an invite's preview answers the bearer of the invite link, who may not have an account yet.
  app.addHook('onRequest', async function workspaceCaller(request) {
    // Declining (DELETE on the same path) still needs a signed-in user.
    if (request.method !== 'GET' || !request.routeOptions.url?.endsWith(INVITE_PREVIEW)) assertUser(request);
  });

  app.get(
    INVITE_PREVIEW,
    {
      schema: {
        tags,
        summary: 'What an invite link is for: the workspace and who invited (the link is the proof); expired or unknown: 404',
        params: inviteParams,
        response: { 200: invitePreviewResponse },
      },
    },
    async (request) => ({ invite: await workspaces.invitePreview(request.params.inviteId) }),
  );

  app.get(
    '/me/workspaces',
    { schema: { tags, summary: 'Your workspaces, the personal one (id 0) first', response: { 200: z.object({ workspaces: z.array(workspaceSchema) }) } } },
    async (request) => ({ workspaces: await workspaces.list(currentActor(request)) }),
  );

  app.get(
    '/workspace-roles',
    { schema: { tags, summary: 'The roles a member can hold', response: { 200: z.object({ workspaceRoles: z.array(workspaceRoleSchema) }) } } },
    async () => ({ workspaceRoles: await workspaces.roles() }),
  );

  app.get(
    '/workspace/:id',
    {
      schema: {
        tags,
        summary: 'One workspace; ?with=members,invites adds its member and invite rows. Not a member: 404',
        params: workspaceIdParams,
        querystring: workspaceQuery,
        response: { 200: workspaceResponse },
      },
    },
    async (request) => ({ workspace: await workspaces.get(currentActor(request), request.params.id, request.query.with) }),
  );

  app.post(
    '/workspace',
    {
      onRequest: requirePermission('workspaces.create'),
      schema: {
        tags,
        summary: 'Create a workspace (permission workspaces.create, up to its count)',
        body: workspaceNameBody,
        response: { 200: workspaceMessageResponse },
      },
    },
    async (request) => ({ workspace: await workspaces.create(currentActor(request), request.body.name), message: await say(request, 'Created workspace') }),
  );

  app.put(
    '/workspace/:id',
    {
      schema: {
        tags,
        summary: 'Rename a workspace (its owner)',
        params: workspaceIdParams,
        body: workspaceNameBody,
        response: { 200: workspaceMessageResponse },
      },
    },
    async (request) => ({
      workspace: await workspaces.rename(currentActor(request), request.params.id, request.body.name),
      message: await say(request, 'Updated workspace'),
    }),
  );

  app.delete(
    '/workspace/:id',
    {
      schema: {
        tags,
        summary: "Delete a workspace (its owner); its entries go to the owner's trash",
        params: workspaceIdParams,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      await workspaces.delete(currentActor(request), request.params.id);
      return { message: await say(request, 'Deleted workspace') };
    },
  );

  app.get(
    '/workspace/join/:inviteId',
    {
      schema: {
        tags,
        summary: 'Accept an invite addressed to your email; expired or unknown: 404',
        params: inviteParams,
        response: { 200: workspaceMessageResponse },
      },
    },
    async (request) => ({ workspace: await workspaces.join(currentActor(request), request.params.inviteId), message: await say(request, 'Joined workspace') }),
  );

  app.delete(
    '/workspace/invite/:inviteId',
    {
      schema: {
        tags,
        summary: 'Decline an invite (the invitee) or revoke it (a member who may remove members)',
        params: inviteParams,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      await workspaces.decline(currentActor(request), request.params.inviteId);
      return { message: await say(request, 'Declined workspace invitation') };
    },
  );

  app.post(
    '/workspace/:workspaceId/invite',
    {
      schema: {
        tags,
        summary: 'Invite people by email with a workspace role; answers the workspace with its members and invites',
        params: workspaceParams,
        body: inviteBody,
        response: { 200: workspaceMessageResponse },
      },
    },
    async (request) => ({
      workspace: await workspaces.invite(currentActor(request), request.params.workspaceId, request.body.emails, request.body.roleId),
      message: await say(request, 'Invite sent'),
    }),
  );

  app.post(
    '/workspace/:workspaceId/:inviteId/resend',
    { schema: { tags, summary: 'Send an invite again (and renew its expiry)', params: workspaceInviteParams, response: { 200: messageResponse } } },
    async (request) => {
      await workspaces.resend(currentActor(request), request.params.workspaceId, request.params.inviteId);
      return { message: await say(request, 'Invite sent') };
    },
  );

  app.post(
    '/workspace/:workspaceId/:modelType/:id/change-role',
    {
      schema: {
        tags,
        summary: "Change a member's or an invite's role (id: member_id or invite id)",
        params: changeRoleParams,
        body: roleBody,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const { workspaceId, modelType, id } = request.params;
      await workspaces.changeRole(currentActor(request), workspaceId, modelType, id, request.body.roleId);
      return { message: await say(request, 'Role changed') };
    },
  );

  app.delete(
    '/workspace/:workspaceId/member/:memberId',
    { schema: { tags, summary: 'Remove a member, or leave (your own member_id)', params: memberParams, response: { 200: messageResponse } } },
    async (request) => {
      const { left } = await workspaces.removeMember(currentActor(request), request.params.workspaceId, request.params.memberId);
      return { message: await say(request, left ? 'Left workspace' : 'Removed member') };
    },
  );
};
