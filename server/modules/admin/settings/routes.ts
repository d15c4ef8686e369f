import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../../plugins/guards.js';
import { callerOf } from '../caller.js';
import { okResponse } from '../users/schemas.js';
import { settingsBody, settingsResponse, testMailBody } from './schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: settings'];

export const adminSettingsRoutes: FastifyPluginAsyncZod<Pick<Admin, 'settings'>> = async (app, { settings }) => {
  app.get(
    '/settings',
    {
      onRequest: requirePermission('settings.view'),
      schema: { tags, summary: 'Every editable setting by group; secrets only as set or not', response: { 200: settingsResponse } },
    },
    async () => settings.read(),
  );
  app.put(
    '/settings',
    {
      onRequest: requirePermission('settings.update'),
      schema: { tags, summary: 'Change settings (any subset); effective at once', body: settingsBody, response: { 200: settingsResponse } },
    },
    async (request) => settings.update(callerOf(request), request.body),
  );
  app.post(
    '/settings/test-mail',
    {
      onRequest: requirePermission('settings.update'),
      schema: { tags, summary: 'Send a test mail with the mail settings in force', body: testMailBody, response: { 200: okResponse } },
    },
    async (request) => {
      await settings.sendTestMail(callerOf(request), request.body.to);
      return { message: 'Email sent' };
    },
  );
};
