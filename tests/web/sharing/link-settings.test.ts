import { describe, expect, it } from 'vitest';
import { bodyFromForm, formFromLink, toLocalInput, WEEK_MS } from '../../../src/features/sharing/lib/link-settings';
import { linkSummary } from '../../../src/features/sharing/lib/link-summary';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const link = { allow_download: true, file_drop: false, has_password: true, expires_at: null, max_downloads: null };

describe('the link settings form', () => {
  it('starts a new link open to view and download, with a week’s expiry ready if switched on', () => {
    const form = formFromLink(null, NOW);
    expect(form).toMatchObject({ allowDownload: true, fileDrop: false, usePassword: false, useExpiry: false, useLimit: false });
    expect(form.expiresAt).toBe(toLocalInput(new Date(NOW + WEEK_MS).toISOString()));
    expect(bodyFromForm(form, null, NOW)).toEqual({ allowDownload: true, fileDrop: false, password: null, expiresAt: null, maxDownloads: null });
  });

  it('keeps the current password when the field is left empty, and removes it when switched off', () => {
    const form = formFromLink(link, NOW);
    expect(form.usePassword).toBe(true);
    expect(bodyFromForm(form, link, NOW)).not.toHaveProperty('password');
    expect(bodyFromForm({ ...form, password: 'new secret' }, link, NOW)).toMatchObject({ password: 'new secret' });
    expect(bodyFromForm({ ...form, usePassword: false }, link, NOW)).toMatchObject({ password: null });
  });

  it('asks for what is missing or wrong before anything is sent', () => {
    const form = formFromLink(null, NOW);
    expect(bodyFromForm({ ...form, usePassword: true }, null, NOW)).toEqual({ field: 'password', message: 'Enter a password for the link.' });
    expect(bodyFromForm({ ...form, usePassword: true, password: 'abc' }, null, NOW)).toMatchObject({ field: 'password' });
    expect(bodyFromForm({ ...form, useExpiry: true, expiresAt: toLocalInput('2026-11-24T10:00:00Z') }, null, NOW)).toMatchObject({ field: 'expiresAt' });
    expect(bodyFromForm({ ...form, useLimit: true, maxDownloads: '0' }, null, NOW)).toMatchObject({ field: 'maxDownloads' });
    expect(bodyFromForm({ ...form, useLimit: true, maxDownloads: '2.5' }, null, NOW)).toMatchObject({ field: 'maxDownloads' });
  });

  it('sends an expiry as an instant and a limit as a number', () => {
    const form = { ...formFromLink(null, NOW), useExpiry: true, useLimit: true, maxDownloads: '3' };
    const body = bodyFromForm(form, null, NOW);
    expect(body).toMatchObject({ maxDownloads: 3, expiresAt: new Date(form.expiresAt).toISOString() });
  });
});

describe('the summary under a link', () => {
  it('says what the link allows and how much of it was used', () => {
    const keys = (value: Parameters<typeof linkSummary>[0]) => linkSummary(value).map((p) => p.key);
    const base = { ...link, has_password: false, download_count: 2, view_count: 5 };
    expect(keys(base)).toEqual(['View and download', ':count downloads', ':count visits']);
    expect(keys({ ...base, allow_download: false, has_password: true, max_downloads: 4 })).toEqual([
      'View only',
      'Password',
      ':used of :max downloads',
      ':count visits',
    ]);
    expect(keys({ ...base, file_drop: true })).toEqual(['File drop', ':count visits']);
  });
});
