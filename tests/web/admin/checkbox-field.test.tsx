import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RolesPage } from '../../../src/features/admin/RolesPage';
import { ThemesPage } from '../../../src/features/admin/themes/ThemesPage';
import { CheckboxField } from '../../../src/ui/form/CheckboxField';
import { renderAdmin } from './render-admin';

afterEach(() => vi.unstubAllGlobals());

const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

describe('the checkbox field', () => {
  it('is named by its label, and a click on the label toggles it', () => {
    const onChange = vi.fn();
    render(<CheckboxField label="Free plan" checked={false} onChange={(e) => onChange(e.target.checked)} />);
    const box = screen.getByRole('checkbox', { name: 'Free plan' });
    expect(box.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByText('Free plan'));
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('is described by its description until an error takes its place', () => {
    const { rerender } = render(<CheckboxField label="Hidden" description="Only admins see it" readOnly checked={false} />);
    expect(describedBy(screen.getByRole('checkbox', { name: 'Hidden' }))).toEqual(['Only admins see it']);
    rerender(<CheckboxField label="Hidden" description="Only admins see it" error="Not allowed." readOnly checked={false} />);
    const box = screen.getByRole('checkbox', { name: 'Hidden' });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(box)).toEqual(['Not allowed.']);
    expect(screen.queryByText('Only admins see it')).toBeNull();
  });
});

describe('checkboxes in the admin dialogs', () => {
  it('the theme dialog puts the server’s error on the default checkbox it is about', async () => {
    renderAdmin(<ThemesPage />, ({ method, path }) => {
      if (method === 'GET' && path === '/api/v1/admin/themes') return Response.json({ themes: [], variables: [] });
      if (method === 'POST' && path === '/api/v1/admin/themes') {
        const message = 'The default light theme cannot be a dark theme.';
        return Response.json({ message, errors: { default_light: [message] } }, { status: 422 });
      }
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add theme' }));
    const d = within(await screen.findByRole('dialog'));
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Night' } });
    fireEvent.click(d.getByRole('checkbox', { name: 'Dark theme' }));
    fireEvent.click(d.getByRole('checkbox', { name: 'Default light' }));
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    const light = d.getByRole('checkbox', { name: 'Default light' });
    await waitFor(() => expect(light.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(light)).toEqual(['The default light theme cannot be a dark theme.']);
    expect(d.getByRole('checkbox', { name: 'Default dark' }).getAttribute('aria-invalid')).toBeNull();
    expect((d.getByRole('checkbox', { name: 'Dark theme' }) as HTMLInputElement).checked).toBe(true);
  });

  it('the role dialog sends its flags and the ticked permissions', async () => {
    const { sent } = renderAdmin(<RolesPage />, ({ method, path }) => {
      if (method === 'GET' && path === '/api/v1/admin/roles') return Response.json({ roles: [] });
      if (method === 'GET' && path === '/api/v1/admin/permissions')
        return Response.json({
          permissions: [
            { name: 'files.view', group: 'files' },
            { name: 'files.create', group: 'files' },
          ],
        });
      if (method === 'POST' && path === '/api/v1/admin/roles') return Response.json({ role: { id: 9 } });
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add role' }));
    const d = within(await screen.findByRole('dialog'));
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Viewers' } });
    fireEvent.click(d.getByRole('checkbox', { name: 'Applies to guests' }));
    fireEvent.click(await d.findByRole('checkbox', { name: 'files.create' }));
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', '/api/v1/admin/roles')).toHaveLength(1));
    expect(sent('POST', '/api/v1/admin/roles')[0]!.body).toMatchObject({
      name: 'Viewers',
      default: false,
      guests: true,
      permissions: [{ name: 'files.create', restrictions: [] }],
    });
  });
});
