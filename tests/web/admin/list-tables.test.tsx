import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagesPage } from '../../../src/features/admin/custom-pages/PagesPage';
import { LocalizationsPage } from '../../../src/features/admin/localizations/LocalizationsPage';
import { page, renderAdmin } from './render-admin';

afterEach(() => vi.unstubAllGlobals());

/** The pages and languages lists draw through AdminTable: a named table, its columns, and an empty state. */
describe('admin lists drawn by AdminTable', () => {
  it('pages: a named table with the page’s address and actions, and “No pages” when there are none', async () => {
    renderAdmin(<PagesPage />, ({ method, path, query }) =>
      method === 'GET' && path === '/api/v1/admin/custom-pages'
        ? Response.json(
            query.get('query') ? page([]) : page([{ id: 5, title: 'About', slug: 'about', visibility: 'signed_in', updated_at: '2026-01-01T00:00:00Z' }]),
          )
        : undefined,
    );
    const table = await screen.findByRole('table', { name: 'Pages' });
    const row = (await within(table).findByText('About')).closest('tr')!;
    expect(within(row).getByRole('link', { name: '/pages/about' }).getAttribute('href')).toBe('/pages/about');
    expect(within(row).getByText('Signed-in users')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/admin/pages/5/edit');
  });

  it('pages: an empty list says so', async () => {
    renderAdmin(<PagesPage />, ({ method, path }) => (method === 'GET' && path === '/api/v1/admin/custom-pages' ? Response.json(page([])) : undefined));
    expect(await screen.findByText('No pages')).toBeTruthy();
  });

  it('languages: a named table with the default marked and its translation count', async () => {
    renderAdmin(<LocalizationsPage />, ({ method, path }) =>
      method === 'GET' && path === '/api/v1/admin/localizations'
        ? Response.json({ localizations: [{ id: 1, name: 'English', language: 'en', default: true, translated: 973, total: 973 }] })
        : undefined,
    );
    const table = await screen.findByRole('table', { name: 'Localizations' });
    const row = (await within(table).findByText('English')).closest('tr')!;
    expect(within(row).getByText('Default')).toBeTruthy();
    expect(within(row).getByText('973 / 973')).toBeTruthy();
    // The default language and English can be neither made default again nor deleted.
    expect(within(row).queryByRole('button', { name: 'Make default' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
