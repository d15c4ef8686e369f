import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { scheduleHousekeeping } from './jobs/housekeeping.js';
import { tidyStore } from './jobs/tidy-store.js';
import { ensureDemoAccounts } from './modules/setup/demo.js';
import { ensureFirstAdmin } from './modules/setup/first-admin.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp({ config });
  const admin = await ensureFirstAdmin(app.services.db.kysely, config.admin);
  if (admin) {
    const password = admin.generatedPassword
      ? `password: ${admin.generatedPassword}\n  (shown only this once; it is stored hashed. Change it in Account settings.)`
      : 'password: the ADMIN_PASSWORD you set';
    console.log(`\nFirst admin account created.\n  email:    ${admin.email}\n  ${password}\n`);
  }

  if (config.demoMode) {
    const created = await ensureDemoAccounts(app.services.db.kysely);
    console.log(`Demo mode: ${created} demo accounts created (admin@demo.com / admin, demo1..100@demo.com / demo).`);
  }

  const { services } = app;
  // Before listening: what a crash left behind (uploads that cannot finish, temporary files, bytes
  // of a commit that never happened) is settled while no request of this process is in flight.
  const recovered = await tidyStore(services.storeChecks, 'start', app.log);
  if (Object.keys(recovered).length) app.log.warn({ recovered }, 'recovered from an unclean stop');
  const stopHousekeeping = scheduleHousekeeping(
    { db: services.db.kysely, tus: services.tus, quota: services.drive.quota, checks: services.storeChecks, s3: services.s3Uploads },
    app.log,
  );
  app.addHook('onClose', async () => stopHousekeeping());

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      void app.close().then(() => process.exit(0));
    });
  }

  await app.listen({ host: config.host, port: config.port });
  const db = config.database.dialect === 'sqlite' ? `SQLite at ${config.database.file}` : 'PostgreSQL';
  console.log(`Drive is running at ${config.appUrl} (${db}, files in ${config.storageDir})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
