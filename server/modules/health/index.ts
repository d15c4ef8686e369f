import type { Db } from '../../db/index.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import { healthRoutes } from './routes.js';
import { HealthService } from './service.js';

/** `GET /health`: the database and the storage folder. */
export function createHealth(db: Db, storageDir: string) {
  const health = new HealthService(db, storageDir);
  return { health, routes: moduleRoutes(API_PREFIX, healthRoutes, { health }) };
}
