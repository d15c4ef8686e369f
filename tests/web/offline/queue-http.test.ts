import { describe, expect, it } from 'vitest';
import { postForm, postJson, tusEndpoint, type HttpDeps } from '../../../src/offline/queues/http';

// The queues' requests from the worker or the page: the base client rules,
// and typed by the same OpenAPI paths as the page's client (review 2026-11 §5
// problem 4). `npm run typecheck` checks this file: a wrong pairing that
// compiled would make an unused @ts-expect-error fail the build.
function recording() {
  const sent: { url: string; init: RequestInit }[] = [];
  const deps: HttpDeps = {
    fetch: async (input, init) => {
      sent.push({ url: String(input), init: init ?? {} });
      return new Response(JSON.stringify({ version: 'v2', fileEntry: { id: 1 } }), { status: 200 });
    },
    origin: 'http://worker.test',
    getXsrfToken: async () => 'tok',
  };
  return { deps, sent };
}

async function pairings(deps: HttpDeps) {
  const saved = await postJson(deps, 'file-entries/save', { id: 'a', version: 'v1', content: [] }, { workspaceId: null });
  const version: string = (await saved.json()).version;
  // @ts-expect-error the save answers a version and the entry, no listing
  void (await saved.json()).pagination;
  // @ts-expect-error a save needs the version it was edited from
  await postJson(deps, 'file-entries/save', { id: 'a', content: [] }, { workspaceId: null });
  // @ts-expect-error a path the document does not have
  await postJson(deps, 's3/multipart/finish', {}, { workspaceId: null });
  const parts = await postJson(deps, 's3/multipart/get-uploaded-parts', { key: 'k', uploadId: 'u' }, { workspaceId: 1 });
  const partSize: number | null = (await parts.json()).partSize;
  return [version, partSize];
}

describe('queue requests', () => {
  it('follow the base client rules: prefix, workspace, XSRF, cookies, JSON', async () => {
    const { deps, sent } = recording();
    const response = await postJson(deps, 'file-entries/save', { id: 'a', version: 'v1', content: [] }, { workspaceId: 7 });
    expect((await response.json()).version).toBe('v2');
    expect(sent[0]!.url).toBe('http://worker.test/api/v1/file-entries/save?workspaceId=7');
    expect(sent[0]!.init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'X-XSRF-TOKEN': 'tok', 'Content-Type': 'application/json' },
    });
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ id: 'a', version: 'v1', content: [] });

    const form = new FormData();
    await postForm(deps, 'file-entries', form, { workspaceId: null });
    expect(sent[1]!.url).toBe('http://worker.test/api/v1/file-entries');
    expect(sent[1]!.init.body).toBe(form);
    // The browser sets a multipart body's type with its boundary.
    expect(sent[1]!.init.headers).not.toHaveProperty('Content-Type');
    expect(tusEndpoint(deps, 3)).toBe('http://worker.test/api/v1/tus/upload?workspaceId=3');
  });

  it('compile only with the body and answer their path declares (checked by the type checker)', () => {
    expect(typeof pairings).toBe('function');
  });
});
