/**
 * Whether a refused password answers as slowly for an address with no account,
 * or an account without a password (social sign-in only), as for a real
 * account: AuthService.verifyPassword's timing equaliser, for the sign-in form
 * and the social "link with your password" prompt. The reference is a wrong
 * password for an account that has one, measured in the same run. Prints the
 * median of each and the ratio; it asserts nothing (timings never belong in
 * unit tests). A ratio far below 1 would tell a guesser which accounts exist.
 *
 *   npx tsx tests/bench/password-timing.ts      (BENCH_ROUNDS=20 by default)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, servicesOf } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { HttpError } from '../../server/lib/errors.js';
import type { PasswordClaim } from '../../server/modules/auth/service.js';
import { createUser } from '../server/support/factories.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 20);

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dataDir, 'none') });
  const app = await buildApp({ config, logger: false });
  const db = servicesOf(app).db.kysely;
  const withPassword = await createUser(db);
  const passwordless = await createUser(db);
  await db.updateTable('users').set({ password: null }).where('id', '=', passwordless.id).execute();

  let attempt = 0;
  /** Median milliseconds of a refused check; every attempt comes from its own address so the throttle never answers first. */
  const median = async (claim: PasswordClaim) => {
    const times: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      attempt += 1;
      const started = performance.now();
      try {
        await servicesOf(app).auth.auth.verifyPassword(claim, 'a wrong password', `10.9.${attempt >> 8}.${attempt & 255}`);
        throw new Error('a wrong password was accepted');
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 422) throw error;
      }
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  };

  for (const purpose of ['sign-in', 'link'] as const) {
    const reference = await median({ purpose, email: withPassword.email });
    const rows = [
      ['no such account', await median({ purpose, email: `nobody-${Date.now()}@example.com` })],
      ['account without a password', await median({ purpose, email: passwordless.email })],
    ] as const;
    console.log(`${purpose}: wrong password for a real account ${reference.toFixed(1)} ms (reference)`);
    for (const [name, ms] of rows) console.log(`  ${name}: ${ms.toFixed(1)} ms, ratio ${(ms / reference).toFixed(2)}`);
  }
  await app.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

await main();
