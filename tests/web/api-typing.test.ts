import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/http';
import { fillPath } from '../../src/api/typed-paths';

// The client is typed by path (review 2026-11 §3): these lines only compile
// when a path, its parameters, its body and its answer belong together.
// `npm run typecheck` checks this file; a wrong pairing that compiled would
// make an unused @ts-expect-error fail the build.
const api = createApiClient({ fetch: async () => new Response('{}'), baseUrl: 'http://app.test' });

async function pairings() {
  const usage = await api.get('user/space-usage');
  const used: number = usage.used;
  // @ts-expect-error the storage summary has no `pagination`
  void usage.pagination;
  // @ts-expect-error a path the document does not have
  await api.get('user/space-usages');
  // @ts-expect-error GET has no body on folders; creating one is a POST
  await api.get('folders', { name: 'x' });
  const created = await api.post('folders', { name: 'Photos', parentId: null });
  const name: string = created.folder.name;
  // @ts-expect-error a folder needs a name
  await api.post('folders', { parentId: null });
  // @ts-expect-error a path parameter the route does not declare
  await api.get('file-entries/{id}', { path: { hash: 'x' } });
  const details = await api.get('file-entries/{id}', { path: { id: 'abc' } });
  const crumbs: { name: string }[] = details.fileEntry.path;
  const listing = await api.get('drive/file-entries', { query: { folderId: '0', perPage: 50 } });
  const permissions: string[] = listing.pagination.data[0]?.permissions ?? [];
  // @ts-expect-error an unknown listing filter
  await api.get('drive/file-entries', { query: { colour: 'red' } });
  return [used, name, crumbs, permissions];
}

describe('the typed client', () => {
  it('fills path parameters, encoded', () => {
    expect(fillPath('users/{id}/avatar', { id: 'me' })).toBe('users/me/avatar');
    expect(fillPath('folders/{hash}/path', { hash: 'a/b c' })).toBe('folders/a%2Fb%20c/path');
    expect(() => fillPath('users/{id}', {})).toThrow(/Missing path parameter id/);
  });

  it('compiles only matching pairings (checked by the type checker)', () => {
    expect(typeof pairings).toBe('function');
  });
});
