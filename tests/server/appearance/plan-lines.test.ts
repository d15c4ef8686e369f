import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlans } from '../../../server/modules/billing/defaults.js';
import { trLines } from '../../../server/modules/localizations/lines/tr.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const GB = 1024 * 1024 * 1024;

/** Plans are an admin's text shown to every visitor: they are translated like every other line. */
describe('plan texts as lines', () => {
  let t: TestApp;
  let admin: TestClient;
  let trId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await createUser(servicesOf(t.app).db.kysely, { roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(user.email, user.password);
    trId = (await servicesOf(t.app).localizations.find('tr'))!.id;
  }, 60_000);
  afterAll(() => t.close());

  it('ships Turkish for the plans a new installation starts with, none restating the storage', () => {
    for (const plan of defaultPlans) {
      for (const text of [plan.name, plan.description, ...plan.feature_list]) expect(trLines[text], text).toBeTruthy();
      expect(plan.feature_list.filter((feature) => /storage/i.test(feature))).toEqual([]);
    }
  });

  it("lists an admin's plan texts in the editor, takes their translation, and bootstrap answers it", async () => {
    const created = await admin.post('/api/v1/admin/plans', {
      name: 'Team Plus',
      description: 'For growing teams',
      feature_list: ['Audit trail'],
      available_space: 500 * GB,
      prices: [{ amount: 1499, currency: 'eur', interval: 'month' }],
    });
    expect(created.statusCode, created.body).toBe(200);

    const listed = await admin.get(`/api/v1/admin/localizations/${trId}/lines?query=Audit%20trail&page=1&perPage=10`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().pagination.data).toEqual([expect.objectContaining({ key: 'Audit trail', source: 'Audit trail', translated: false })]);

    const saved = await admin.request('PUT', `/api/v1/admin/localizations/${trId}/lines`, {
      body: { lines: { 'Team Plus': 'Ekip Artı', 'For growing teams': 'Büyüyen ekipler için', 'Audit trail': 'Denetim kaydı' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const visitor = new TestClient(t.app);
    await visitor.post('/api/v1/users/me/locale', { locale: 'tr' });
    const lines = (await visitor.get('/api/v1/bootstrap-data')).json().data.i18n.lines as Record<string, string>;
    expect(lines).toMatchObject({ 'Team Plus': 'Ekip Artı', 'For growing teams': 'Büyüyen ekipler için', 'Audit trail': 'Denetim kaydı' });
  });

  it('ships the footer’s Privacy Policy and Terms of Service as pages an admin edits (issue 32.7)', async () => {
    const guest = new TestClient(t.app);
    for (const [slug, title] of [
      ['privacy-policy', 'Privacy Policy'],
      ['terms-of-service', 'Terms of Service'],
    ]) {
      const res = await guest.get(`/api/v1/custom-pages/${slug}`);
      expect(res.statusCode, slug).toBe(200);
      expect(res.json().page).toMatchObject({ title });
    }
  });

  it('still refuses a key that is neither a line nor a plan text', async () => {
    const res = await admin.request('PUT', `/api/v1/admin/localizations/${trId}/lines`, { body: { lines: { 'No such text anywhere': 'x' } } });
    expect(res.statusCode).toBe(422);
  });
});
