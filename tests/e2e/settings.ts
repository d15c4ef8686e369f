import { request } from '@playwright/test';
import { E2E_ADMIN, E2E_BASE_URL } from './env';

/**
 * Changes site settings the way an admin does: signed in as the e2e admin,
 * through the admin area's call (PUT /api/v1/admin/settings). The server reads
 * settings on use, so the change applies at once.
 */
export async function setSettings(values: Record<string, unknown>): Promise<void> {
  const context = await request.newContext({ baseURL: E2E_BASE_URL });
  try {
    await context.get('/api/v1/health');
    const xsrf = async () => (await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const login = await context.post('/auth/login', { data: { ...E2E_ADMIN, remember: false }, headers: { 'X-XSRF-TOKEN': await xsrf() } });
    if (!login.ok()) throw new Error(`admin sign-in failed: ${login.status()} ${await login.text()}`);
    const res = await context.post('/api/v1/admin/settings?_method=PUT', {
      data: values,
      headers: { 'X-XSRF-TOKEN': await xsrf(), 'X-HTTP-Method-Override': 'PUT' },
    });
    if (!res.ok()) throw new Error(`saving settings failed: ${res.status()} ${await res.text()}`);
  } finally {
    await context.dispose();
  }
}

export const setSetting = (key: string, value: unknown): Promise<void> => setSettings({ [key]: value });
