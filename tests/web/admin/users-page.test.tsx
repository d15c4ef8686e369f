import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsersPage } from '../../../src/features/admin/UsersPage';
import { page, renderAdmin } from './render-admin';

afterEach(() => vi.unstubAllGlobals());

const user = (id: number, email: string) => ({
  id,
  email,
  first_name: null,
  last_name: null,
  display_name: email.split('@')[0]!,
  avatar: null,
  email_verified_at: '2026-01-01T00:00:00Z',
  suspended_at: null,
  created_at: '2026-01-01T00:00:00Z',
  last_active_at: null,
  space_used: 0,
  space_available: null,
  roles: [],
});

describe('the users table', () => {
  it('selects rows one by one or all at once and suspends the selection in one call', async () => {
    const { sent } = renderAdmin(<UsersPage />, ({ method, path }) => {
      if (method === 'GET' && path === '/api/v1/admin/users') return Response.json(page([user(1, 'ann@example.com'), user(2, 'bob@example.com')]));
      if (method === 'POST' && path === '/api/v1/admin/users/bulk-update') return Response.json({ message: 'Updated users' });
      return undefined;
    });
    await screen.findByText('ann@example.com');
    expect(screen.queryByRole('toolbar')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select bob@example.com' }));
    const toolbar = screen.getByRole('toolbar', { name: 'Selected users' });
    expect(toolbar.textContent).toContain('1 selected');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(toolbar.textContent).toContain('2 selected');
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(sent('POST', '/api/v1/admin/users/bulk-update')).toHaveLength(1));
    expect(sent('POST', '/api/v1/admin/users/bulk-update')[0]!.body).toEqual({ ids: [1, 2], action: 'suspend' });

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.queryByRole('toolbar')).toBeNull();
  });

  it('sorts by a header, ascending first, then descending, and says so to assistive tech', async () => {
    const { sent } = renderAdmin(<UsersPage />, ({ method, path }) =>
      method === 'GET' && path === '/api/v1/admin/users' ? Response.json(page([user(1, 'ann@example.com')])) : undefined,
    );
    await screen.findByText('ann@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(sent('GET', '/api/v1/admin/users').at(-1)!.query.get('orderBy')).toBe('email'));
    expect(sent('GET', '/api/v1/admin/users').at(-1)!.query.get('orderDir')).toBe('asc');
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(sent('GET', '/api/v1/admin/users').at(-1)!.query.get('orderDir')).toBe('desc'));
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('shows a loading state, then an empty state when nobody matches', async () => {
    let answer: (response: Response) => void = () => undefined;
    // The page waits until the test lets it through.
    const waiting = new Promise<Response>((resolve) => (answer = resolve));
    renderAdmin(<UsersPage />, ({ method, path }) => (method === 'GET' && path === '/api/v1/admin/users' ? waiting : undefined));
    expect(await screen.findByRole('progressbar', { name: 'Loading...' })).toBeTruthy();
    answer(Response.json(page([])));
    expect(await screen.findByText('No users found')).toBeTruthy();
  });
});
