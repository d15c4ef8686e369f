import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import { BootstrapJson } from './json.js';
import { bootstrapRoutes } from './routes.js';
import { BootstrapService } from './service.js';

/** The data the app needs before its first screen, and its checked JSON (strict outside production). */
export function createBootstrap(checked: boolean, ...deps: ConstructorParameters<typeof BootstrapService>) {
  const bootstrap = new BootstrapService(...deps);
  const bootstrapJson = new BootstrapJson(checked);
  return { bootstrap, bootstrapJson, routes: moduleRoutes(API_PREFIX, bootstrapRoutes, { bootstrap, bootstrapJson }) };
}
