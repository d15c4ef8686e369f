// Shared by playwright.config.ts (which starts the server) and the specs.
// Overridable so that two checkouts on one machine can run their e2e suites side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8091);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-Password1' };
/** The smtp-server sink global setup runs; the server sends mail to it (MAIL_URL). */
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
export const E2E_MAIL_URL = `smtp://127.0.0.1:${E2E_SMTP_PORT}`;
/** The local Stripe double global setup runs (tests/peers/stripe-double.ts); the server's Stripe client talks to it. */
export const E2E_STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT ?? 12111);
export const E2E_STRIPE = {
  apiBase: `http://127.0.0.1:${E2E_STRIPE_PORT}`,
  secretKey: 'sk_test_e2e_double',
  webhookSecret: 'whsec_e2e_double_secret',
  webhookUrl: `${E2E_BASE_URL}/api/v1/billing/stripe/webhook`,
};
/**
 * A second server whose disk is S3 (uploads-s3.spec.ts, the `s3` project), on
 * the S3 peer (tests/peers/s3-peer.ts) that a web server entry of its own starts.
 */
export const E2E_S3_PORT = Number(process.env.E2E_S3_PORT ?? 8092);
export const E2E_S3_BASE_URL = `http://localhost:${E2E_S3_PORT}`;
export const E2E_S3_PEER_PORT = Number(process.env.E2E_S3_PEER_PORT ?? 4569);
export const E2E_S3_PEER = { endpoint: `http://127.0.0.1:${E2E_S3_PEER_PORT}`, bucket: 'drive-e2e' };
