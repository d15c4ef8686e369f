import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { enLines } from '../../../server/modules/localizations/lines/en.js';
import { trLines } from '../../../server/modules/localizations/lines/tr.js';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser } from '../support/factories.js';
import { restoreSettingsAfterTest } from '../support/settings.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const API = '/api/v1/admin/localizations';

describe('admin localizations', () => {
  let t: TestApp;
  let admin: TestClient;
  let trId: number;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
    trId = (await servicesOf(t.app).localizations.find('tr'))!.id;
  }, 60_000);
  afterAll(() => t.close());

  /** A language for the running test only: it is gone once the test finishes, whatever happened in it. */
  const ownLanguage = async (language: string, name: string) => {
    onTestFinished(async () => {
      await servicesOf(t.app).db.kysely.deleteFrom('localizations').where('language', '=', language).execute();
    });
    const res = await admin.post(API, { language, name });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().localization as { id: number; language: string; default: boolean; translated: number };
  };

  it('lists the shipped languages with English as default and every line counted', async () => {
    const { localizations } = (await admin.get(API)).json() as { localizations: { language: string; default: boolean }[] };
    const total = Object.keys(enLines).length;
    // Languages other tests add are theirs: this test looks at the shipped two, and that English alone is the default.
    expect(localizations.filter((l) => l.language === 'en' || l.language === 'tr')).toEqual([
      expect.objectContaining({ language: 'en', name: 'English', default: true, translated: total, total }),
      expect.objectContaining({ language: 'tr', name: 'Türkçe', default: false, translated: total, total }),
    ]);
    expect(localizations.filter((l) => l.default).map((l) => l.language)).toEqual(['en']);
  });

  it('adds, renames, makes default and deletes a language; refuses bad codes and duplicates', async () => {
    await restoreSettingsAfterTest(t.app, ['i18n.default_localization']);
    expect((await admin.post(API, { language: 'tr', name: 'Again' })).json().errors).toEqual({ language: ['A language with this code already exists.'] });
    expect((await admin.post(API, { language: 'Deutsch!', name: 'x' })).json().errors).toEqual({ language: ['Enter a language code such as de or pt-BR.'] });
    const de = await ownLanguage('de', 'Deutsch');
    expect(de).toMatchObject({ language: 'de', default: false, translated: 0 });

    const renamed = await admin.request('PUT', `${API}/${de.id}`, { body: { name: 'German', default: true } });
    expect(renamed.json().localization).toMatchObject({ name: 'German', default: true });
    expect(await servicesOf(t.app).settings.get('i18n.default_localization')).toBe('de');

    // The default and English cannot go.
    expect((await admin.request('DELETE', `${API}/${de.id}`)).statusCode).toBe(409);
    const en = (await servicesOf(t.app).localizations.find('en'))!;
    await admin.request('PUT', `${API}/${en.id}`, { body: { name: 'English', default: true } });
    const deleteEnglish = await admin.request('DELETE', `${API}/${en.id}`);
    expect(deleteEnglish.statusCode).toBe(409);
    expect(deleteEnglish.json().message).toBe('English cannot be deleted: it is the source of every translation.');

    expect((await admin.request('DELETE', `${API}/${de.id}`)).statusCode).toBe(200);
    expect((await admin.get(`${API}/${de.id}/lines`)).statusCode).toBe(404);
    const activity = (await admin.get('/api/v1/admin/activity?action=localization.deleted')).json().pagination.data;
    expect(activity[0]).toMatchObject({ subject_label: 'German' });
  });

  it('answers 404 for an unknown language on every call', async () => {
    expect((await admin.get(`${API}/99999/lines`)).statusCode).toBe(404);
    expect((await admin.get(`${API}/99999/export`)).statusCode).toBe(404);
    expect((await admin.request('PUT', `${API}/99999`, { body: { name: 'x' } })).statusCode).toBe(404);
    expect((await admin.request('PUT', `${API}/99999/lines`, { body: { lines: { Save: 'x' } } })).statusCode).toBe(404);
    expect((await admin.post(`${API}/99999/import`, { lines: {} })).statusCode).toBe(404);
    expect((await admin.request('DELETE', `${API}/99999`)).statusCode).toBe(404);
  });

  it('pages and searches lines, marking untranslated ones of a new language', async () => {
    const fr = await ownLanguage('fr', 'Français');
    await admin.request('PUT', `${API}/${fr.id}/lines`, { body: { lines: { Save: 'Enregistrer' } } });
    const page = (await admin.get(`${API}/${fr.id}/lines?query=save&perPage=5`)).json();
    expect(page.pagination.data.find((l: { key: string }) => l.key === 'Save')).toEqual({
      key: 'Save',
      source: 'Save',
      value: 'Enregistrer',
      translated: true,
      overridden: true,
    });
    const untranslated = (await admin.get(`${API}/${fr.id}/lines?untranslated=true&perPage=10&page=2`)).json().pagination;
    expect(untranslated.total).toBe(Object.keys(enLines).length - 1);
    expect(untranslated.current_page).toBe(2);
    expect(untranslated.data).toHaveLength(10);
    expect(untranslated.data.every((l: { translated: boolean; value: string | null }) => !l.translated && l.value === null)).toBe(true);
  });

  it('refuses unknown line keys as field errors and stores nothing', async () => {
    const res = await admin.request('PUT', `${API}/${trId}/lines`, { body: { lines: { Save: 'Kaydet!', 'No such line': 'x' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'lines.No such line': ['There is no such line.'] });
    expect((await servicesOf(t.app).localizations.lines(trId)).Save).toBe(trLines.Save);
  });

  it('puts an edited line into the next bootstrap, and a reset brings back the shipped text', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const reader = new TestClient(t.app);
    await reader.login(user.email, user.password);
    await reader.post('/api/v1/users/me/locale', { locale: 'tr' });

    onTestFinished(async () => {
      await servicesOf(t.app).localizations.setLines(trId, { 'Go to my drive': null });
    });
    await admin.request('PUT', `${API}/${trId}/lines`, { body: { lines: { 'Go to my drive': 'Sürücüme git!' } } });
    expect((await reader.get('/api/v1/bootstrap-data')).json().data.i18n.lines['Go to my drive']).toBe('Sürücüme git!');
    const view = (await admin.get(`${API}/${trId}/lines?query=${encodeURIComponent('Go to my drive')}`)).json().pagination.data[0];
    expect(view).toMatchObject({ value: 'Sürücüme git!', overridden: true });

    await admin.request('PUT', `${API}/${trId}/lines`, { body: { lines: { 'Go to my drive': null } } });
    expect((await reader.get('/api/v1/bootstrap-data')).json().data.i18n.lines['Go to my drive']).toBe(trLines['Go to my drive']);
  });

  it('exports and imports a language: a round trip, unknown keys reported, wrong types refused', async () => {
    const exported = await admin.get(`${API}/${trId}/export`);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="tr.json"');
    const file = exported.json();
    expect(file).toMatchObject({ language: 'tr', name: 'Türkçe' });
    expect(file.lines.Email).toBe(trLines.Email);

    const es = await ownLanguage('es', 'Español');
    const lines = { ...file.lines, Save: 'Guardar', 'Not a line': 'x' };
    const imported = await admin.post(`${API}/${es.id}/import`, { lines });
    expect(imported.json()).toEqual({ imported: Object.keys(file.lines).length, unknown: ['Not a line'] });
    const back = (await admin.get(`${API}/${es.id}/export`)).json();
    expect(back.lines).toEqual({ ...file.lines, Save: 'Guardar' });

    const bad = await admin.post(`${API}/${es.id}/import`, { lines: { Save: 42, Cancel: 'Cancelar' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ 'lines.Save': ['Each translation must be text.'] });
    expect((await servicesOf(t.app).localizations.lines(es.id)).Cancel).toBe(file.lines.Cancel);
  });

  it('lists the server’s languages to everyone (the language selector)', async () => {
    const it = await ownLanguage('it', 'Italiano');
    const list = (await new TestClient(t.app).get('/api/v1/value-lists/localizations')).json().localizations;
    expect(list).toContainEqual({ id: it.id, language: 'it', name: 'Italiano' });
  });
});
