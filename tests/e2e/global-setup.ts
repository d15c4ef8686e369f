import { E2E_SMTP_PORT } from './env';
import { startMailSink } from './mail-sink';

/** Starts the SMTP sink for the whole run; Playwright calls the returned function at the end. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is set by playwright.config.ts');
  const server = await startMailSink(E2E_SMTP_PORT, dataDir);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
