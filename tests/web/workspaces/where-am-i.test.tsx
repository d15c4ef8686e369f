import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setActiveWorkspace } from '../../../src/api/active-workspace';
import { driveKeys } from '../../../src/features/drive/api/keys';
import { workspaceKeys } from '../../../src/features/workspaces/api/keys';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderApp } from '../render-app';

const personal = { id: 0, name: 'Default', default: true, owner_id: null, members_count: 1 };
const team = { id: 7, name: 'Design team', default: false, owner_id: 99, members_count: 3 };

afterEach(() => {
  setActiveWorkspace(0);
  vi.unstubAllGlobals();
});

beforeAll(async () => {
  await Promise.all([import('../../../src/app/layouts/AppLayout'), import('../../../src/features/drive/DriveRoutes')]);
});

/** Issue 32.3: inside a workspace, the drive says so wherever it would say "Drive" or "My drive". */
describe('where am I in a workspace', () => {
  it('names the active workspace in the heading, the sidebar and the storage meter', async () => {
    // Only what the cache holds is shown: the server never answers.
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    setActiveWorkspace(team.id);
    const user = makeUser({ id: 5151 });
    renderApp('/drive', makeBootstrap({ user }), [
      [workspaceKeys.list, [personal, team]],
      [driveKeys.usageOf(team.id), { used: 2048, available: 10 * 1024 * 1024 }],
    ]);

    expect(await screen.findByRole('heading', { level: 1, name: 'Design team' })).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Drive' });
    const current = within(sidebar).getByRole('link', { current: 'page' });
    expect(current.textContent).toContain('Design team');
    expect(within(sidebar).queryByRole('link', { name: 'My drive' })).toBeNull();
    expect(await screen.findByRole('meter', { name: 'Storage of Design team' })).toBeTruthy();
  });

  it('keeps "Drive" and "My drive" in the personal workspace', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const user = makeUser({ id: 5152 });
    renderApp('/drive', makeBootstrap({ user }), [
      [workspaceKeys.list, [personal, team]],
      [driveKeys.usageOf(0), { used: 2048, available: null }],
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Drive' })).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Drive' })).getByRole('link', { current: 'page' }).textContent).toContain('My drive');
    expect(await screen.findByRole('meter', { name: 'Storage' })).toBeTruthy();
  });
});
