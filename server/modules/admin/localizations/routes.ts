import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission } from '../../../plugins/guards.js';
import { callerOf } from '../caller.js';
import { okResponse } from '../users/schemas.js';
import {
  createLocalizationBody,
  exportResponse,
  importBody,
  importResponse,
  linesQuery,
  linesResponse,
  localizationIdParam,
  localizationList,
  localizationResponse,
  updateLinesBody,
  updateLinesResponse,
  updateLocalizationBody,
} from './schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: localizations'];
const view = requirePermission('localizations.view');
const update = requirePermission('localizations.update');
const params = localizationIdParam;

export const adminLocalizationRoutes: FastifyPluginAsyncZod<Pick<Admin, 'localizations'>> = async (app, { localizations }) => {
  app.get(
    '/localizations',
    { onRequest: view, schema: { tags, summary: 'Every language, with how many lines it has translated', response: { 200: localizationList } } },
    async () => ({ localizations: await localizations.list() }),
  );
  app.post(
    '/localizations',
    { onRequest: update, schema: { tags, summary: 'Add a language', body: createLocalizationBody, response: { 200: localizationResponse } } },
    async (request) => ({ localization: await localizations.create(callerOf(request), request.body) }),
  );
  app.put(
    '/localizations/:id',
    {
      onRequest: update,
      schema: { tags, summary: 'Rename a language, or make it the default', params, body: updateLocalizationBody, response: { 200: localizationResponse } },
    },
    async (request) => ({ localization: await localizations.update(callerOf(request), request.params.id, request.body) }),
  );
  app.delete(
    '/localizations/:id',
    { onRequest: update, schema: { tags, summary: 'Delete a language (not English, not the default)', params, response: { 200: okResponse } } },
    async (request) => {
      await localizations.delete(callerOf(request), request.params.id);
      return { message: 'Deleted language' };
    },
  );
  app.get(
    '/localizations/:id/lines',
    {
      onRequest: view,
      schema: { tags, summary: 'A page of lines: English source beside this language', params, querystring: linesQuery, response: { 200: linesResponse } },
    },
    async (request) => localizations.lines(request.params.id, request.query),
  );
  app.put(
    '/localizations/:id/lines',
    {
      onRequest: update,
      schema: { tags, summary: 'Change lines; live on users’ next bootstrap', params, body: updateLinesBody, response: { 200: updateLinesResponse } },
    },
    async (request) => localizations.updateLines(callerOf(request), request.params.id, request.body.lines),
  );
  app.get(
    '/localizations/:id/export',
    { onRequest: view, schema: { tags, summary: 'A language as JSON', params, response: { 200: exportResponse } } },
    async (request, reply) => {
      const body = await localizations.export(request.params.id);
      reply.header('Content-Disposition', `attachment; filename="${body.language}.json"`);
      return body;
    },
  );
  app.post(
    '/localizations/:id/import',
    { onRequest: update, schema: { tags, summary: 'Import an exported language file', params, body: importBody, response: { 200: importResponse } } },
    async (request) => localizations.import(callerOf(request), request.params.id, request.body.lines),
  );
};
