import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { buildApp, servicesOf } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { ACTIVITY_PRUNE_INTERVAL_MS, HOUSEKEEPING_INTERVAL_MS, RETENTION_INTERVAL_MS } from './jobs/housekeeping.js';
import { tidyStore } from './jobs/tidy-store.js';
import { connectRedis } from './lib/redis.js';
import { withRedisLock } from './lib/redis-lock.js';
import { ensureDemoAccounts } from './modules/setup/demo.js';
import { ensureFirstAdmin } from './modules/setup/first-admin.js';

/** Set by the primary in the processes it forks: they serve, the primary has already prepared. */
const PREPARED = 'DRIVE_PREPARED';
const RESTART_DELAY_MS = 1000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * What runs once before any process serves: migrations and seeding (in
 * buildApp), the first admin, demo accounts and the start-up tidying. In
 * scale-out mode a Redis lock makes it once across machines that start
 * together too, and the tidying only takes what no request could still be
 * writing, since another machine may be serving meanwhile.
 */
async function prepare(config: Config): Promise<FastifyInstance> {
  const work = async () => {
    const app = await buildApp({ config });
    const admin = await ensureFirstAdmin(servicesOf(app).db.kysely, config.admin);
    if (admin) {
      const password = admin.generatedPassword
        ? `password: ${admin.generatedPassword}\n  (shown only this once; it is stored hashed. Change it in Account settings.)`
        : 'password: the ADMIN_PASSWORD you set';
      console.log(`\nFirst admin account created.\n  email:    ${admin.email}\n  ${password}\n`);
    }
    if (config.demoMode) {
      const created = await ensureDemoAccounts(servicesOf(app).db.kysely);
      console.log(`Demo mode: ${created} demo accounts created (admin@demo.com / admin, demo1..100@demo.com / demo).`);
    }
    // Before listening: what a crash left behind (uploads that cannot finish, temporary files, bytes
    // of a commit that never happened) is settled while no request of this site is in flight (embedded),
    // or what has been untouched for long enough (scale-out: other machines may be mid-upload).
    const recovered = await tidyStore(servicesOf(app).storeChecks, config.redis ? 'running' : 'start', app.log);
    if (Object.keys(recovered).length) app.log.warn({ recovered }, 'recovered from an unclean stop');
    return app;
  };
  if (!config.redis) return work();
  const redis = connectRedis(config.redis.url);
  try {
    return await withRedisLock(redis, `${config.redis.prefix}lock:start-up`, work);
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}

/** One serving process: housekeeping scheduled (once across processes on the shared queue), then listening. */
async function serve(app: FastifyInstance, config: Config): Promise<void> {
  await servicesOf(app).jobs.every('housekeeping', {}, HOUSEKEEPING_INTERVAL_MS);
  await servicesOf(app).jobs.every('retention', {}, RETENTION_INTERVAL_MS);
  await servicesOf(app).jobs.every('activity-prune', {}, ACTIVITY_PRUNE_INTERVAL_MS);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      void app.close().then(() => process.exit(0));
    });
  }
  await app.listen({ host: config.host, port: config.port });
}

function announce(config: Config, processes: number) {
  const db = config.database.dialect === 'sqlite' ? `SQLite at ${config.database.file}` : 'PostgreSQL';
  const scale = config.redis ? `, Redis, ${processes} process${processes === 1 ? '' : 'es'}` : '';
  console.log(`Drive is running at ${config.appUrl} (${db}, files in ${config.storageDir}${scale})`);
}

/**
 * WORKERS=N: the primary prepares once, then forks N serving processes that
 * share the port (node:cluster hands connections round-robin), restarts one
 * that dies, and passes SIGTERM/SIGINT on for an orderly stop.
 */
async function supervise(config: Config): Promise<void> {
  const prepared = await prepare(config);
  await prepared.close();
  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork({ [PREPARED]: '1' });
  cluster.on('listening', () => {
    listening += 1;
    if (listening === config.workers) announce(config, config.workers);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`Server process ${worker.process.pid} stopped (${signal ?? code}); starting another.`);
    setTimeout(fork, RESTART_DELAY_MS).unref();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
      let left = workers.length;
      if (!left) process.exit(0);
      for (const worker of workers) {
        worker.once('exit', () => {
          left -= 1;
          if (!left) process.exit(0);
        });
        worker.process.kill('SIGTERM');
      }
    });
  }
  for (let i = 0; i < config.workers; i += 1) fork();
}

async function main() {
  const config = readConfig();
  if (cluster.isWorker && process.env[PREPARED]) {
    await serve(await buildApp({ config }), config);
    return;
  }
  if (config.workers > 1) {
    await supervise(config);
    return;
  }
  const app = await prepare(config);
  await serve(app, config);
  announce(config, 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
