import { moduleRoutes } from '../../lib/routes.js';
import { manifestRoutes } from './routes.js';
import { ManifestService } from './service.js';

/** The web app manifest, from the site's branding and theme. */
export function createManifest(...deps: ConstructorParameters<typeof ManifestService>) {
  const manifest = new ManifestService(...deps);
  return { manifest, routes: moduleRoutes('', manifestRoutes, { manifest }) };
}
