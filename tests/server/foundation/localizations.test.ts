import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { enLines } from '../../../server/modules/localizations/lines/en.js';
import { trLines } from '../../../server/modules/localizations/lines/tr.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('localizations and value lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ships English and Turkish with the same keys and placeholders', () => {
    expect(Object.keys(trLines).sort()).toEqual(Object.keys(enLines).sort());
    for (const [key, value] of Object.entries(trLines)) {
      for (const placeholder of key.match(/:[a-zA-Z]+/g) ?? []) expect(value, key).toContain(placeholder);
    }
  });

  it('has a line for every message the server answers with', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && !file.includes(`${path.sep}lines${path.sep}`)) sources.push(fs.readFileSync(file, 'utf8'));
      }
    };
    walk(path.resolve('server'));
    // The ways a message reaches a response: the catalogue's factories, field errors, templates.
    const pattern =
      /(?:field\([\w.'"]+, |(?:Forbidden|NotFound|Conflict|TooManyRequests|PayloadTooLarge|Unauthenticated|LengthRequired|PreconditionFailed|UnsupportedMediaType|RangeNotSatisfiable|Gone)\(|[A-Z_]*(?:NOT_FOUND|FAILED|NOT_ALLOWED|USED_UP|LOCKED|LINK_PASSWORD) = |HttpError\(\d+, |template: |failPopup\(request, reply, )'([^']+)'/g;
    const messages = new Set(sources.flatMap((source) => [...source.matchAll(pattern)].map((m) => m[1]!)));
    expect(messages.size).toBeGreaterThan(30);
    const missing = [...messages].filter((m) => !(m in enLines) || !(m in trLines));
    expect(missing).toEqual([]);
  });

  it('lists localizations, countries and timezones in one call', async () => {
    const res = await new TestClient(t.app).get('/api/v1/value-lists/localizations,countries,timezones');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.localizations.map((l: { language: string }) => l.language)).toEqual(['en', 'tr']);
    expect(body.countries.length).toBeGreaterThan(200);
    expect(body.countries).toContainEqual({ code: 'tr', name: 'Türkiye' });
    expect(body.timezones.Europe).toContainEqual({ value: 'Europe/Istanbul', text: '(UTC+03:00) Istanbul' });
  });

  it('answers only the lists asked for', async () => {
    const body = (await new TestClient(t.app).get('/api/v1/value-lists/timezones')).json();
    expect(Object.keys(body)).toEqual(['timezones']);
  });

  it('refuses an unknown list name with a field error', async () => {
    const res = await new TestClient(t.app).get('/api/v1/value-lists/countries,planets');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty(['names.1']);
  });

  it('changes a guest’s language through a cookie and answers the new lines', async () => {
    const client = new TestClient(t.app);
    const res = await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    expect(res.statusCode).toBe(200);
    const { locale } = res.json();
    expect(locale).toMatchObject({ language: 'tr', name: 'Türkçe' });
    expect(locale.lines['Take me there!']).toBe(trLines['Take me there!']);
    const { data } = (await client.get('/api/v1/bootstrap-data')).json();
    expect(data.i18n.language).toBe('tr');
    expect(data.i18n.lines['Email']).toBe(trLines['Email']);
  });

  it('stores a signed-in user’s language on their account', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    const fresh = new TestClient(t.app);
    await fresh.login(user.email, user.password);
    expect((await fresh.get('/api/v1/bootstrap-data')).json().data.i18n.language).toBe('tr');
  });

  it('refuses a language that does not exist', async () => {
    const res = await new TestClient(t.app).post('/api/v1/users/me/locale', { locale: 'xx' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ locale: ['This language is not available.'] });
  });

  it('keeps a translation an admin edited when the app starts again', async () => {
    const db = servicesOf(t.app).db.kysely;
    const tr = await db.selectFrom('localizations').select('id').where('language', '=', 'tr').executeTakeFirstOrThrow();
    await servicesOf(t.app).localizations.setLines(tr.id, { 'Take me there!': 'Oraya götür' });
    // The edit is this test's own: the guest-language test reads the shipped line.
    onTestFinished(() =>
      servicesOf(t.app)
        .localizations.setLines(tr.id, { 'Take me there!': null })
        .then(() => undefined),
    );
    const { seed } = await import('../../../server/modules/setup/seeder.js');
    await seed(db);
    expect(await servicesOf(t.app).localizations.lines(tr.id)).toMatchObject({ 'Take me there!': 'Oraya götür' });
  });

  it('stores only overrides: copies of shipped lines an earlier release stored are dropped at start', async () => {
    const db = servicesOf(t.app).db.kysely;
    const tr = await db.selectFrom('localizations').select('id').where('language', '=', 'tr').executeTakeFirstOrThrow();
    await db.insertInto('localization_lines').values({ localization_id: tr.id, key: 'Email', value: trLines.Email! }).execute();
    const { seed } = await import('../../../server/modules/setup/seeder.js');
    await seed(db);
    const stored = await db.selectFrom('localization_lines').select('key').where('localization_id', '=', tr.id).execute();
    expect(stored.map((row) => row.key)).not.toContain('Email');
    expect((await servicesOf(t.app).localizations.lines(tr.id)).Email).toBe(trLines.Email);
  });
});
