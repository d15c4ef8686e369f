import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const API = '/api/v1/admin/themes';

describe('admin themes', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  }, 60_000);
  afterAll(() => t.close());

  /** The themes as they were before the running test, once it finishes: its own themes go, the defaults come back. */
  const restoreThemesAfterTest = async () => {
    const db = servicesOf(t.app).db.kysely;
    const before = await db.selectFrom('themes').selectAll().execute();
    onTestFinished(async () => {
      await db
        .deleteFrom('themes')
        .where(
          'id',
          'not in',
          before.map((row) => row.id),
        )
        .execute();
      for (const { id, ...row } of before) await db.updateTable('themes').set(row).where('id', '=', id).execute();
    });
  };

  it('lists the shipped themes and every colour variable', async () => {
    const body = (await admin.get(API)).json();
    const themes = body.themes as { name: string; colors: Record<string, string> }[];
    // Other tests of this file add themes of their own: the shipped two are there, first, whatever ran before.
    expect(themes.slice(0, 2).map((th) => th.name)).toEqual(['Light', 'Dark']);
    expect(body.variables).toContain('--be-primary');
    for (const theme of themes) expect(Object.keys(theme.colors).sort(), theme.name).toEqual([...body.variables].sort());
  });

  it('creates a theme from hex or triplets, filling the rest from the shipped one of its kind', async () => {
    await restoreThemesAfterTest();
    const res = await admin.post(API, { name: 'Night', is_dark: true, colors: { '--be-primary': '#FF8800', '--be-background': '1 2 3' } });
    expect(res.statusCode, res.body).toBe(200);
    const { theme } = res.json();
    expect(theme.colors['--be-primary']).toBe('255 136 0');
    expect(theme.colors['--be-background']).toBe('1 2 3');
    expect(theme.colors['--be-paper']).toBe('36 36 36');
    const update = await admin.request('PUT', `${API}/${theme.id}`, { body: { name: 'Midnight', is_dark: true, colors: { '--be-primary': '#abc' } } });
    expect(update.json().theme).toMatchObject({ name: 'Midnight', colors: { '--be-primary': '170 187 204', '--be-background': '1 2 3' } });
  });

  it('refuses malformed colours, unknown variables and impossible defaults as field errors', async () => {
    const res = await admin.post(API, {
      name: 'Bad',
      is_dark: true,
      default_light: true,
      colors: { '--be-primary': 'red', '--be-background': '256 0 0', '--my-own': '#000000' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'colors.--be-primary': ['Enter a colour as #rrggbb or three numbers from 0 to 255 (such as 26 115 232).'],
      'colors.--be-background': ['Enter a colour as #rrggbb or three numbers from 0 to 255 (such as 26 115 232).'],
      'colors.--my-own': ['This is not a colour the app uses.'],
      default_light: ['The default light theme cannot be a dark theme.'],
    });
    expect((await admin.get(API)).json().themes.some((th: { name: string }) => th.name === 'Bad')).toBe(false);
  });

  it('keeps one default light theme; the new default reaches the bootstrap and the manifest', async () => {
    await restoreThemesAfterTest();
    const { theme } = (await admin.post(API, { name: 'Forest', is_dark: false, default_light: true, colors: { '--be-primary': '#228b22' } })).json();
    const themes = (await admin.get(API)).json().themes as { id: number; name: string; default_light: boolean }[];
    expect(themes.filter((th) => th.default_light).map((th) => th.id)).toEqual([theme.id]);
    const boot = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json().data;
    expect(boot.themes.selectedThemeId).toBe(theme.id);
    expect((await new TestClient(t.app).get('/manifest.webmanifest')).json().theme_color).toBe('#228b22');

    // A default cannot be deleted; another theme can.
    expect((await admin.request('DELETE', `${API}/${theme.id}`)).statusCode).toBe(409);
    const light = themes.find((th) => th.name === 'Light')!;
    await admin.request('PUT', `${API}/${light.id}`, { body: { name: 'Light', is_dark: false, default_light: true, colors: {} } });
    expect((await admin.request('DELETE', `${API}/${theme.id}`)).statusCode).toBe(200);
    expect((await admin.request('PUT', `${API}/${theme.id}`, { body: { name: 'x', is_dark: false, colors: {} } })).statusCode).toBe(404);
    expect((await admin.request('DELETE', `${API}/${theme.id}`)).statusCode).toBe(404);
  });
});
