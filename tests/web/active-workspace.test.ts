import { afterEach, describe, expect, it } from 'vitest';
import { activeWorkspaceId, PERSONAL_WORKSPACE, setActiveWorkspace, workspaceParam } from '../../src/api/active-workspace';
import { readCookie } from '../../src/api/cookies';
import { createApiClient } from '../../src/api/http';

describe('the active workspace', () => {
  afterEach(() => setActiveWorkspace(PERSONAL_WORKSPACE));

  it('is one piece of state, written to the activeWorkspaceId cookie the server sees', () => {
    setActiveWorkspace(12);
    expect(activeWorkspaceId()).toBe(12);
    expect(readCookie('activeWorkspaceId')).toBe('12');
    expect(workspaceParam(12)).toBe(12);
    expect(workspaceParam(PERSONAL_WORKSPACE)).toBeNull();
  });

  it('scopes the client’s requests once switched, and the personal workspace sends no parameter', async () => {
    const urls: string[] = [];
    const api = createApiClient({
      baseUrl: 'http://app.test',
      fetch: async (input) => {
        urls.push(input instanceof Request ? input.url : String(input));
        return new Response('{"used":0,"available":null}', { headers: { 'Content-Type': 'application/json' } });
      },
    });
    await api.get('user/space-usage');
    setActiveWorkspace(3);
    await api.get('user/space-usage');
    expect(urls).toEqual(['http://app.test/api/v1/user/space-usage', 'http://app.test/api/v1/user/space-usage?workspaceId=3']);
  });
});
