import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsersPage } from '../../../src/features/admin/UsersPage';
import { toastStore } from '../../../src/ui/toast/toast-store';
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

  it('asks the admin’s password when the server requires it, keeps asking while it is wrong, then deletes (issue 30 finding 8)', async () => {
    const asked = { current_password: ['Enter your current password to confirm this change.'] };
    const { sent } = renderAdmin(<UsersPage />, ({ method, path, body }) => {
      if (method === 'GET' && path === '/api/v1/admin/users') return Response.json(page([user(1, 'ann@example.com')]));
      if (method === 'POST' && path === '/api/v1/admin/users/bulk-delete') {
        const password = (body as { current_password?: string }).current_password;
        if (password === 'right one') return Response.json({ message: 'Deleted users' });
        const errors = password ? { current_password: ['The current password is incorrect.'] } : asked;
        return Response.json({ message: errors.current_password[0], errors }, { status: 422 });
      }
      return undefined;
    });
    await screen.findByText('ann@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete users' })).getByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Password required' });
    expect(dialog.textContent).toContain('Enter your current password to confirm this change.');
    expect(sent('POST', '/api/v1/admin/users/bulk-delete')[0]!.body).toEqual({ ids: [1] });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'wrong one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The current password is incorrect.')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'right one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Password required' })).toBeNull());
    expect(sent('POST', '/api/v1/admin/users/bulk-delete').at(-1)!.body).toEqual({ ids: [1], current_password: 'right one' });
    await waitFor(() => expect(toastStore.getToasts().at(-1)?.message).toBe('Deleted users'));
  });
});
