import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { setActiveWorkspace } from '../../../src/api/active-workspace';
import { useLeaveWorkspace } from '../../../src/features/workspaces/api/mutations';
import { useWorkspace } from '../../../src/features/workspaces/api/queries';
import { workspaceKeys } from '../../../src/features/workspaces/api/keys';
import { makeBootstrap, makeUser } from '../fixtures';

const personal = { id: 0, name: 'Default', default: true, owner_id: null, members_count: 1 };
const team = { id: 7, name: 'Design team', default: false, owner_id: 99, members_count: 2, members: [], invites: [] };

afterEach(() => {
  setActiveWorkspace(0);
  vi.unstubAllGlobals();
});

/** Issue 32.5: after leaving, the app does not ask for the workspace once more (the server would answer 404). */
describe('leaving a workspace', () => {
  it('asks for the left workspace no more, even while the members dialog still shows it', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const method = url.searchParams.get('_method') ?? request.method;
      calls.push(`${method} ${url.pathname}`);
      const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
      if (url.pathname.endsWith('/me/workspaces')) return json({ workspaces: calls.some((c) => c.startsWith('DELETE')) ? [personal] : [personal, team] });
      if (url.pathname.endsWith('/workspace/7')) return json({ workspace: team });
      return json({ message: 'Left workspace' });
    });
    setActiveWorkspace(7);
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ id: 6161 }) }));
    client.setQueryData(workspaceKeys.list, [personal, team]);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => ({ shown: useWorkspace(7), leave: useLeaveWorkspace() }), { wrapper });
    await waitFor(() => expect(result.current.shown.data?.name).toBe('Design team'));

    await act(() => result.current.leave.mutateAsync({ workspaceId: 7, memberId: 3 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const left = calls.findIndex((c) => c.startsWith('DELETE') || c.includes('/member/'));
    expect(left).toBeGreaterThanOrEqual(0);
    expect(calls.slice(left + 1).filter((c) => c.endsWith('/workspace/7'))).toEqual([]);
  });
});
