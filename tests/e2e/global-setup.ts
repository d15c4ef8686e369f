import { startStripeDouble } from '../peers/stripe-double';
import { E2E_SMTP_PORT, E2E_STRIPE, E2E_STRIPE_PORT } from './env';
import { startMailSink } from './mail-sink';

/** Starts the SMTP sink and the Stripe double for the whole run; Playwright calls the returned function at the end. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is set by playwright.config.ts');
  const server = await startMailSink(E2E_SMTP_PORT, dataDir);
  const stripe = await startStripeDouble({
    secretKey: E2E_STRIPE.secretKey,
    webhookSecret: E2E_STRIPE.webhookSecret,
    webhookUrl: E2E_STRIPE.webhookUrl,
    port: E2E_STRIPE_PORT,
  });
  return async () => {
    await stripe.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
