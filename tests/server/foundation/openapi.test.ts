import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiFiles, OPENAPI_FILE, TYPES_FILE } from '../../../scripts/api-types.js';
import { TestClient } from '../support/client.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is served at /api/v1/openapi.json as OpenAPI 3.1 with the routes and their schemas', async () => {
    const res = await new TestClient(t.app).get('/api/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/bootstrap-data', '/api/v1/users/me/locale', '/api/v1/value-lists/{names}', '/auth/login', '/auth/logout']),
    );
    expect(doc.components.schemas.Bootstrap.properties).toHaveProperty('guest_role');
  });
});

// The committed client types must match the routes: regenerate with `npm run api:generate`.
describe.runIf(DIALECT === 'sqlite')('generated client types', () => {
  it('are fresh', async () => {
    const { openapi, types } = await generateApiFiles();
    expect(await fs.readFile(OPENAPI_FILE, 'utf8'), 'src/api/openapi.json is stale: run npm run api:generate').toBe(openapi);
    expect(await fs.readFile(TYPES_FILE, 'utf8'), 'src/api/schema.d.ts is stale: run npm run api:generate').toBe(types);
  });
});
