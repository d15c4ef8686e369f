import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agreeingWithZod, compileSchema, exactly, exactResponse, responseSerializerCompiler } from '../../../server/lib/response-serializer.js';
import { BootstrapJson } from '../../../server/modules/bootstrap/json.js';
import type { Bootstrap } from '../../../server/modules/bootstrap/service.js';

const entry = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  parent: z.object({ hash: z.string() }).nullable(),
  tags: z.array(z.string()),
  extra: z.record(z.string(), z.string()).optional(),
});
const listing = z.object({ data: z.array(entry), next: z.string().nullable() });

async function appWith(checked: boolean, payload: unknown) {
  const app = Fastify({ logger: false });
  app.setSerializerCompiler(responseSerializerCompiler({ checked }));
  app.get('/x', { schema: { response: { 200: listing } } }, async () => payload);
  await app.ready();
  return app;
}

describe('the compiled response serializer', () => {
  it('writes what zod writes for nullable values, nested objects, arrays and records', () => {
    const data = {
      data: [
        { id: 1, name: 'a "quoted" </script>', description: null, parent: null, tags: [], extra: { 'key.with.dots': 'ü' } },
        { id: 2, name: 'b', description: 'd', parent: { hash: 'h' }, tags: ['x', 'y'] },
      ],
      next: null,
    };
    expect(JSON.parse(compileSchema(listing)!(data))).toEqual(listing.parse(data));
  });

  it('leaves out properties the schema does not list, in production as zod did (a column a handler forgot)', async () => {
    const row = { id: 1, name: 'n', description: null, parent: { hash: 'h', password: 'p' }, tags: [], password_hash: 'secret' };
    const app = await appWith(false, { data: [row], next: null, session: 'token' });
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('token');
    expect(res.json()).toEqual({ data: [{ id: 1, name: 'n', description: null, parent: { hash: 'h' }, tags: [] }], next: null });
    await app.close();
  });

  it('when checked, still refuses a response that breaks the schema (a 500, as zod did)', async () => {
    const app = await appWith(true, { data: [{ id: 'one', name: 'n', description: null, parent: null, tags: [] }], next: null });
    expect((await app.inject('/x')).statusCode).toBe(500);
    await app.close();
  });

  it('keeps zod for a schema JSON Schema cannot express, and still answers', async () => {
    const schema = z.object({ a: z.custom<string>((value) => typeof value === 'string' && value.startsWith('x')) });
    expect(compileSchema(schema)).toBeNull();
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(responseSerializerCompiler({ checked: false }));
    app.get('/z', { schema: { response: { 200: schema } } }, async () => ({ a: 'xyz', extra: 'dropped' }));
    const res = await app.inject('/z');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ a: 'xyz' });
    await app.close();
  });

  it('when checked, throws naming the route when the compiled output and zod disagree', () => {
    const schema = z.object({ n: z.string() });
    expect(agreeingWithZod(schema, { n: '12' }, '{"n":"12"}', 'GET /y')).toBe('{"n":"12"}');
    expect(() => agreeingWithZod(schema, { n: '12' }, '{"n":12}', 'GET /y')).toThrow(/GET \/y disagrees with zod/);
  });
});

describe('an exact response (exactResponse)', () => {
  const exactApp = async (checked: boolean, payload: unknown) => {
    const schema = exactResponse(listing.extend({}));
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(responseSerializerCompiler({ checked }));
    app.get('/e', { schema: { response: { 200: schema } } }, async () => payload);
    await app.ready();
    return app;
  };
  const exact = { data: [{ id: 1, name: 'a "q" </script> ü', description: null, parent: { hash: 'h' }, tags: ['x'] }], next: 'n' };

  it('is written by JSON.stringify in production: the same JSON zod writes', async () => {
    const app = await exactApp(false, exact);
    const res = await app.inject('/e');
    expect(res.body).toBe(JSON.stringify(exact));
    expect(res.json()).toEqual(listing.parse(exact));
    await app.close();
  });

  it('when checked, refuses a key the schema does not list (what production would have sent)', async () => {
    const app = await exactApp(true, { ...exact, data: [{ ...exact.data[0], password_hash: 'secret' }] });
    const res = await app.inject('/e');
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toMatch(/GET \/e disagrees with zod/);
    await app.close();
    const good = await exactApp(true, exact);
    expect((await good.inject('/e')).json()).toEqual(exact);
    await good.close();
  });

  it('exactly() lets through what has no extra key, at any depth (the compiler refuses the rest)', () => {
    expect(exactly(listing, exact)).toBe(exact);
    const withExtra = { ...exact, data: [{ ...exact.data[0], parent: { hash: 'h', path: '/1/2' } }] };
    // @ts-expect-error -- parent.path is not in the schema
    expect(exactly(listing, withExtra)).toBe(withExtra);
  });
});

describe('bootstrap JSON', () => {
  const lines = { 'Sign in': 'Oturum aç', 'quote "x"': '</script>' };
  const data = {
    user: null,
    guest_role: { id: 1, name: 'guests', permissions: [] },
    themes: { all: [], selectedThemeId: null },
    settings: { base_url: 'http://x', registration: { disable: false }, extra: { a: 1 } },
    branding: { site_name: 'S', logo_light: '', logo_dark: '', logo_light_mobile: '', logo_dark_mobile: '', favicon: '' },
    i18n: { language: 'tr', lines },
    localizations: [{ id: 1, language: 'tr', name: 'Türkçe' }],
    menus: [],
    registration: { disable: false, policies: [] },
    recaptcha: { site_key: '', enable: { register: false, contact: false, link_creation: false } },
    notifications: { integrated: true, subscriptions: { integrated: false } },
    billing: { enable: false },
    social: { google: { enable: false }, facebook: { enable: false }, twitter: { enable: false } },
    site: { demo: false },
    demo: { loginPageDefaults: 'singleAccount', credentials: null },
    app_version: '4.02',
    impersonator: null,
    two_factor_setup: false,
  } as unknown as Bootstrap;

  it('splices the lines into the rest and equals the whole serialised at once', () => {
    for (const checked of [true, false]) {
      const json = new BootstrapJson(checked).serialize(data);
      expect(JSON.parse(json)).toEqual({ data });
    }
  });

  it('serialises a lines object once, and a new lines object (a write, another language) afresh', () => {
    const serializer = new BootstrapJson(false);
    const first = serializer.serialize(data);
    // The same object changed in place is not something the service does; a changed copy is.
    lines['Sign in'] = 'changed in place';
    expect(serializer.serialize(data)).toBe(first);
    const fresh = { ...data, i18n: { language: 'tr', lines: { ...lines } } } as Bootstrap;
    expect(JSON.parse(serializer.serialize(fresh)).data.i18n.lines['Sign in']).toBe('changed in place');
  });
});
