import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_ADMIN, E2E_BASE_URL, E2E_MAIL_URL, E2E_PORT, E2E_STRIPE } from './tests/e2e/env';

// A fresh data directory per run. The config is evaluated again in each
// worker; the env variable keeps them all on the one the server got.
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'drive-e2e-')));

// `npm test` builds first (dist/web and dist/server); Playwright only starts it.
export default defineConfig({
  testDir: 'tests/e2e',
  // An smtp-server sink the server sends its mail to (tests/e2e/mail-sink.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  timeout: 30_000,
  use: {
    baseURL: E2E_BASE_URL,
    headless: true,
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium: nothing here downloads a browser.
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node dist/server/main.js',
    url: `${E2E_BASE_URL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      APP_URL: E2E_BASE_URL,
      NODE_ENV: 'production',
      MAIL_URL: E2E_MAIL_URL,
      // Web push goes to a local push service (tests/peers/push-service.ts) on http://localhost.
      PUSH_ALLOW_LOOPBACK: 'true',
      // Billing against the local Stripe double (tests/peers/stripe-double.ts, started by global setup).
      STRIPE_API_BASE: E2E_STRIPE.apiBase,
      STRIPE_SECRET_KEY: E2E_STRIPE.secretKey,
      STRIPE_WEBHOOK_SECRET: E2E_STRIPE.webhookSecret,
    },
  },
});
