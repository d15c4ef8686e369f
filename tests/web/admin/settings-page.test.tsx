import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsPage } from '../../../src/features/admin/SettingsPage';
import { renderAdmin } from './render-admin';

afterEach(() => vi.unstubAllGlobals());

const settings = {
  groups: {
    general: ['branding.site_name', 'site.url'],
    authentication: ['registration.policies'],
    billing: ['billing.enable', 'billing.stripe.secret_key'],
    cookie_notice: ['cookie_notice.position', 'cookie_notice.button'],
    uploads: ['trash.keep_days', 'versions.max_days', 'activity.keep_days'],
  },
  settings: {
    'branding.site_name': 'Drive',
    'site.url': '',
    'registration.policies': [{ id: 'terms', label: 'Terms', action: '/pages/terms', type: 'route' }],
    'billing.enable': true,
    'cookie_notice.position': 'bottom',
    'cookie_notice.button': { label: 'Learn more', action: 'https://example.com/privacy', type: 'link' },
    'trash.keep_days': 30,
    'versions.max_days': 365,
    'activity.keep_days': 365,
  },
  secrets: { 'billing.stripe.secret_key': true },
  mail: { configured: true },
};

function renderSettings(put: (body: Record<string, unknown>) => Response) {
  return renderAdmin(<SettingsPage />, ({ method, path, body }) => {
    if (path !== '/api/v1/admin/settings') return undefined;
    if (method === 'GET') return Response.json(settings);
    if (method === 'PUT') return put(body as Record<string, unknown>);
    return undefined;
  });
}

describe('the settings screen', () => {
  it('never shows a secret: an empty password field says it is set, and saving without typing leaves it out', async () => {
    const { sent } = renderSettings(() => Response.json(settings));
    fireEvent.click(await screen.findByRole('tab', { name: 'Billing' }));
    const secret = screen.getByLabelText('Stripe secret key') as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.value).toBe('');
    expect(screen.getByText('Set. Type a new value to replace it.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('PUT', '/api/v1/admin/settings')).toHaveLength(1));
    expect(sent('PUT', '/api/v1/admin/settings')[0]!.body).toEqual({ 'billing.enable': true });

    fireEvent.change(secret, { target: { value: 'sk_live_new' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('PUT', '/api/v1/admin/settings')).toHaveLength(2));
    expect(sent('PUT', '/api/v1/admin/settings')[1]!.body).toEqual({ 'billing.enable': true, 'billing.stripe.secret_key': 'sk_live_new' });
    // Saved: the field empties again rather than keep the secret on screen.
    await waitFor(() => expect(secret.value).toBe(''));
  });

  it('sends the retention days as numbers, under their own labels', async () => {
    const { sent } = renderSettings(() => Response.json(settings));
    fireEvent.click(await screen.findByRole('tab', { name: 'Uploads' }));
    const trashDays = screen.getByLabelText('Days a trashed item is kept before it is deleted forever') as HTMLInputElement;
    expect(trashDays.type).toBe('number');
    fireEvent.change(trashDays, { target: { value: '14' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('PUT', '/api/v1/admin/settings')).toHaveLength(1));
    expect(sent('PUT', '/api/v1/admin/settings')[0]!.body).toEqual({ 'trash.keep_days': 14, 'versions.max_days': 365, 'activity.keep_days': 365 });
  });

  it('puts the server’s field errors under their fields', async () => {
    renderSettings(() =>
      Response.json({ message: 'Enter a full address…', errors: { 'site.url': ['Enter a full address starting with http:// or https://.'] } }, { status: 422 }),
    );
    fireEvent.change(await screen.findByLabelText('Site address (empty: the address the server was started with)'), { target: { value: 'drive.example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const field = screen.getByLabelText('Site address (empty: the address the server was started with)');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Enter a full address starting with http:// or https://.')).toBeTruthy();
  });

  it('edits links as fields, not JSON, and a policy list row by row', async () => {
    const { sent } = renderSettings(() => Response.json(settings));
    fireEvent.click(await screen.findByRole('tab', { name: 'Cookie notice' }));
    expect(screen.queryByRole('textbox', { name: /json/i })).toBeNull();
    fireEvent.change(screen.getByLabelText('Link text'), { target: { value: 'Privacy' } });
    fireEvent.change(screen.getByLabelText('Cookie notice position (top or bottom)'), { target: { value: 'top' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('PUT', '/api/v1/admin/settings')).toHaveLength(1));
    expect(sent('PUT', '/api/v1/admin/settings')[0]!.body).toEqual({
      'cookie_notice.position': 'top',
      'cookie_notice.button': { label: 'Privacy', action: 'https://example.com/privacy', type: 'link' },
    });

    fireEvent.click(screen.getByRole('tab', { name: 'Authentication' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add policy' }));
    const texts = screen.getAllByLabelText('Link text');
    fireEvent.change(texts[1]!, { target: { value: 'Privacy policy' } });
    fireEvent.change(screen.getAllByLabelText('Address')[1]!, { target: { value: 'https://example.com/privacy' } });
    fireEvent.change(screen.getAllByLabelText('Opens')[1]!, { target: { value: 'link' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('PUT', '/api/v1/admin/settings')).toHaveLength(2));
    const policies = (sent('PUT', '/api/v1/admin/settings')[1]!.body as Record<string, unknown>)['registration.policies'] as Record<string, string>[];
    expect(policies[0]).toEqual({ id: 'terms', label: 'Terms', action: '/pages/terms', type: 'route' });
    expect(policies[1]).toMatchObject({ label: 'Privacy policy', action: 'https://example.com/privacy', type: 'link' });
    expect(policies[1]!.id).toMatch(/^policy-/);
  });
});
