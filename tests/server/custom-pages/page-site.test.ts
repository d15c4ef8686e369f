import { describe, expect, it } from 'vitest';
import { pageSite } from '../../../server/modules/custom-pages/index.js';

/** The glue the composition root used to hold: which site a page's head tags name. */
describe('pageSite', () => {
  const settingsOf = (values: Record<string, unknown>) => ({ get: async (key: string) => values[key] as never });

  it('names the branding site name and APP_URL', async () => {
    expect(await pageSite(settingsOf({ 'branding.site_name': 'Acme Drive' }), 'https://drive.example.com')()).toEqual({
      name: 'Acme Drive',
      url: 'https://drive.example.com',
    });
  });

  it('answers an empty name when the setting is unset or not text, and reads it afresh each time', async () => {
    const values: Record<string, unknown> = {};
    const site = pageSite(settingsOf(values), 'http://localhost:8080');
    expect((await site()).name).toBe('');
    values['branding.site_name'] = 42;
    expect((await site()).name).toBe('');
    values['branding.site_name'] = 'Later';
    expect((await site()).name).toBe('Later');
  });
});
