import { moduleRoutes } from '../../lib/routes.js';
import type { SettingsService } from '../settings/service.js';
import { apiDocsRoutes } from './routes.js';

/** The interactive API documentation at /api/v1/docs. */
export const createApiDocs = (settings: Pick<SettingsService, 'get'>) => ({ routes: moduleRoutes('', apiDocsRoutes, { settings }) });
