import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_ADMIN, E2E_BASE_URL, E2E_MAIL_URL, E2E_PORT, E2E_S3_BASE_URL, E2E_S3_PEER, E2E_S3_PEER_PORT, E2E_S3_PORT, E2E_STRIPE } from './tests/e2e/env';
import { s3PeerEnv } from './tests/peers/s3-peer-env';

// A fresh data directory per run. The config is evaluated again in each
// worker; the env variable keeps them all on the one the server got.
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'drive-e2e-')));
const s3DataDir = (process.env.E2E_S3_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'drive-e2e-s3-')));
const S3_SPECS = /uploads-s3\.spec\.ts$/;

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
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: S3_SPECS },
    // The same browser against the second server, whose files live in the S3 peer.
    { name: 's3', use: { browserName: 'chromium', baseURL: E2E_S3_BASE_URL }, testMatch: S3_SPECS },
  ],
  webServer: [
    {
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
    // Web servers start in this order, before global setup: the peer is up before the server that uses it.
    {
      command: 'node --import tsx tests/peers/run-s3-peer.ts',
      port: E2E_S3_PEER_PORT,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      // SIGTERM lets the peer remove its temporary folder (the default SIGKILL would leave it behind).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: { S3_PEER_PORT: String(E2E_S3_PEER_PORT), S3_PEER_BUCKET: E2E_S3_PEER.bucket },
    },
    {
      command: 'node dist/server/main.js',
      url: `${E2E_S3_BASE_URL}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(E2E_S3_PORT),
        DATA_DIR: s3DataDir,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        APP_URL: E2E_S3_BASE_URL,
        NODE_ENV: 'production',
        MAIL_URL: E2E_MAIL_URL,
        // Browsers send file bytes straight to the peer (S3_DIRECT_UPLOAD defaults to true).
        ...s3PeerEnv(E2E_S3_PEER.endpoint, E2E_S3_PEER.bucket),
      },
    },
  ],
});
