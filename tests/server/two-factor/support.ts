import type { FastifyInstance } from 'fastify';
import { totpCode } from '../../../server/modules/auth/two-factor/totp.js';
import type { TestClient } from '../support/client.js';
import { servicesOf } from '../support/services-handle.js';

const STEP_MS = 30_000;

/**
 * Waits out the last seconds of a time step, so a code computed now is still
 * in the server's step (or its neighbour) when the request reaches it.
 */
export async function awayFromStepEnd(marginMs = 3000): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** The code an authenticator app would show `offsetMs` from now. */
export const codeAt = (secret: string, offsetMs = 0) => totpCode(secret, Date.now() + offsetMs);

/** Sets up and confirms an authenticator app for the signed-in client; answers its secret and recovery codes. */
export async function enableTotp(client: TestClient): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.post('/api/v1/user/two-factor/totp');
  if (setup.statusCode !== 200) throw new Error(`setup: ${setup.statusCode} ${setup.body}`);
  const { secret } = setup.json() as { secret: string };
  await awayFromStepEnd();
  // The previous step's code: confirming takes its step, so a sign-in right after can use the current one.
  const confirm = await client.post('/api/v1/user/two-factor/totp/confirm', { code: codeAt(secret, -STEP_MS) });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.statusCode} ${confirm.body}`);
  return { secret, recoveryCodes: (confirm.json() as { recovery_codes: string[] }).recovery_codes };
}

/** The last accepted step, so a test can put it back and use a code of the current step again. */
export async function forgetLastStep(app: FastifyInstance, userId: number): Promise<void> {
  await servicesOf(app).db.kysely.updateTable('user_totp').set({ last_step: null }).where('user_id', '=', userId).execute();
}
