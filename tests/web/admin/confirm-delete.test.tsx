import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagesPage } from '../../../src/features/admin/custom-pages/PagesPage';
import { LocalizationsPage } from '../../../src/features/admin/localizations/LocalizationsPage';
import { MenusPage } from '../../../src/features/admin/menus/MenusPage';
import { RolesPage } from '../../../src/features/admin/RolesPage';
import { ThemesPage } from '../../../src/features/admin/themes/ThemesPage';
import { WorkspacesPage } from '../../../src/features/admin/WorkspacesPage';
import { toastStore } from '../../../src/ui/toast/toast-store';
import { page, renderAdmin } from './render-admin';

afterEach(() => vi.unstubAllGlobals());

const at = '2026-01-01T00:00:00Z';

/** Each admin list that deletes through ConfirmDelete: what it lists, and what its dialog and toast say. */
const screens: {
  name: string;
  screen: ReactNode;
  list: Record<string, unknown>;
  shown: string;
  open: string;
  title: string;
  body: string;
  deletes: string;
  success: string;
}[] = [
  {
    name: 'themes',
    screen: <ThemesPage />,
    list: {
      'GET /api/v1/admin/themes': {
        themes: [{ id: 3, name: 'Sunset', is_dark: false, default_light: false, default_dark: false, colors: {} }],
        variables: [],
      },
    },
    shown: 'Sunset',
    open: 'Delete',
    title: 'Delete theme',
    body: 'Delete the theme Sunset?',
    deletes: '/api/v1/admin/themes/3',
    success: 'Deleted theme',
  },
  {
    name: 'workspaces',
    screen: <WorkspacesPage />,
    list: {
      'GET /api/v1/admin/workspaces': page([{ id: 8, name: 'Design team', owner_id: 1, owner_email: 'owner@example.com', members_count: 3, created_at: at }]),
    },
    shown: 'Design team',
    open: 'Delete',
    title: 'Delete workspace',
    body: 'Delete the workspace Design team? Its files go to the owner’s trash.',
    deletes: '/api/v1/admin/workspaces/8',
    success: 'Deleted workspace',
  },
  {
    name: 'roles',
    screen: <RolesPage />,
    list: {
      'GET /api/v1/admin/roles': {
        roles: [{ id: 4, name: 'Editors', description: null, type: 'sitewide', default: false, guests: false, users_count: 2, permissions: [] }],
      },
    },
    shown: 'Editors',
    open: 'Delete',
    title: 'Delete role',
    body: 'Delete the role Editors? Its users lose its permissions.',
    deletes: '/api/v1/admin/roles/4',
    success: 'Deleted role',
  },
  {
    name: 'custom pages',
    screen: <PagesPage />,
    list: { 'GET /api/v1/admin/custom-pages': page([{ id: 5, title: 'About', slug: 'about', visibility: 'everyone', updated_at: at }]) },
    shown: 'About',
    open: 'Delete',
    title: 'Delete page',
    body: 'Delete the page About? Links to it will show the not-found page.',
    deletes: '/api/v1/admin/custom-pages/5',
    success: 'Deleted page',
  },
  {
    name: 'localizations',
    screen: <LocalizationsPage />,
    list: {
      'GET /api/v1/admin/localizations': { localizations: [{ id: 6, name: 'Deutsch', language: 'de', default: false, translated: 1, total: 2 }] },
    },
    shown: 'Deutsch',
    open: 'Delete',
    title: 'Delete language',
    body: 'Delete Deutsch and all its translations? Users who chose it see the default language.',
    deletes: '/api/v1/admin/localizations/6',
    success: 'Deleted language',
  },
  {
    name: 'menus',
    screen: <MenusPage />,
    list: {
      'GET /api/v1/admin/menus': { menus: [{ id: 7, name: 'Footer links', positions: ['footer'], items: [] }], positions: ['navbar', 'footer'] },
      'GET /api/v1/admin/roles': { roles: [] },
    },
    shown: 'Footer links',
    open: 'Delete menu',
    title: 'Delete menu',
    body: 'Delete the menu Footer links and its items?',
    deletes: '/api/v1/admin/menus/7',
    success: 'Deleted menu',
  },
];

const lastToast = () => toastStore.getToasts().at(-1);

describe.each(screens)('deleting on the $name page', ({ screen: ui, list, shown, open, title, body, deletes, success }) => {
  const show = (answer: () => Response) =>
    renderAdmin(ui, ({ method, path }) => {
      const listed = list[`${method} ${path}`];
      if (listed) return Response.json(listed);
      if (method === 'DELETE' && path === deletes) return answer();
      return undefined;
    });

  async function confirm() {
    await screen.findAllByText(shown);
    fireEvent.click(screen.getByRole('button', { name: open }));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(within(dialog).getByText(body)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
  }

  it('asks first, deletes on confirm, says so and closes', async () => {
    const { sent } = show(() => Response.json({}));
    await confirm();
    await waitFor(() => expect(sent('DELETE', deletes)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastToast()).toMatchObject({ message: success });
    expect(lastToast()?.type).not.toBe('danger');
  });

  it('shows the server’s reason when the delete fails, and closes', async () => {
    const { sent } = show(() => Response.json({ message: 'It is still in use.' }, { status: 422 }));
    await confirm();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent('DELETE', deletes)).toHaveLength(1);
    expect(lastToast()).toMatchObject({ message: 'It is still in use.', type: 'danger' });
  });

  it('sends nothing when cancelled', async () => {
    const { sent } = show(() => Response.json({}));
    await screen.findAllByText(shown);
    fireEvent.click(screen.getByRole('button', { name: open }));
    const dialog = await screen.findByRole('dialog', { name: title });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent('DELETE', deletes)).toHaveLength(0);
  });
});
