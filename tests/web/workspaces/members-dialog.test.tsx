import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { ManageMembersDialog } from '../../../src/features/workspaces/dialogs/ManageMembersDialog';
import { workspaceKeys } from '../../../src/features/workspaces/api/keys';
import type { MemberRow, Workspace } from '../../../src/features/workspaces/api/types';
import { makeBootstrap, makeUser } from '../fixtures';

const OWNER = 6161;
const roles = [
  { id: 11, name: 'Workspace Editor', description: null },
  { id: 12, name: 'Workspace Viewer', description: null },
];
const row = (overrides: Partial<MemberRow>): MemberRow => ({
  model_type: 'member',
  id: OWNER,
  display_name: 'Olive Owner',
  email: 'olive@example.com',
  avatar: null,
  role_id: null,
  role_name: null,
  is_owner: true,
  permissions: [],
  ...overrides,
});
const owner = row({ member_id: 1 });
const invited = row({
  model_type: 'invite',
  id: 'inv-1',
  display_name: 'mia@example.com',
  email: 'mia@example.com',
  role_id: 11,
  role_name: 'Workspace Editor',
  is_owner: false,
});
const joined = row({ id: 77, member_id: 2, display_name: 'Mia Member', email: 'mia@example.com', role_id: 11, role_name: 'Workspace Editor', is_owner: false });
const team = (members: MemberRow[], invites: MemberRow[]): Workspace => ({
  id: 7,
  name: 'Team',
  default: false,
  owner_id: OWNER,
  members_count: members.length,
  members,
  invites,
});

afterEach(() => vi.unstubAllGlobals());
// react-aria's modal reads a <meta> by a selector built with CSS.escape, which jsdom lacks.
beforeEach(() => vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (char) => `\\${char}`) }));

describe('the members dialog', () => {
  it('paints the last answer at once, and its rows take no action until the new answer is in', async () => {
    // The last answer had Mia's invite; she has joined since.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
      if (url.pathname.endsWith('/workspace-roles')) return json({ workspaceRoles: roles });
      if (url.pathname.endsWith('/me/workspaces')) return json({ workspaces: [team([owner, joined], [])] });
      if (url.pathname.endsWith('/workspace/7')) return answered.then(() => json({ workspace: team([owner, joined], []) }));
      throw new Error(`unexpected ${url.pathname}`);
    });
    const client = createQueryClient();
    client.setQueryData(queryKeys.bootstrap, makeBootstrap({ user: makeUser({ id: OWNER }) }));
    client.setQueryData(workspaceKeys.list, [team([owner], [invited])]);
    client.setQueryData(workspaceKeys.one(7), team([owner], [invited]));
    client.setQueryData(workspaceKeys.roles, roles);
    render(
      <QueryClientProvider client={client}>
        <ManageMembersDialog workspace={team([owner], [invited])} onLeave={() => undefined} onClose={() => undefined} />
      </QueryClientProvider>,
    );

    const stale = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Role: mia@example.com' });
    expect(stale.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Resend' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Remove' }).hasAttribute('disabled')).toBe(true);

    await act(async () => answer());
    const current = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Role: Mia Member' });
    await waitFor(() => expect(current.disabled).toBe(false));
    expect(screen.queryByRole('combobox', { name: 'Role: mia@example.com' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove' }).hasAttribute('disabled')).toBe(false);
  });
});
