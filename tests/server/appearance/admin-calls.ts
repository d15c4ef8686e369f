import type { TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Call {
  method: Method;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const suffix = () => Math.random().toString(36).slice(2, 6);
let codes = 0;
/** A language code no call used before: "x" and two letters counted up. */
export const newCode = (first = 'x') => {
  codes += 1;
  return `${first}${String.fromCharCode(97 + (Math.floor(codes / 26) % 26))}${String.fromCharCode(97 + (codes % 26))}`;
};
/** A language of its own for each destructive call. */
const freshLanguage = async (t: TestApp) => servicesOf(t.app).localizations.create({ language: newCode(), name: 'Temporary' });
const trId = async (t: TestApp) => (await servicesOf(t.app).localizations.find('tr'))!.id;
const freshTheme = async (t: TestApp) => (await servicesOf(t.app).appearance.themes.create({ name: `Theme ${suffix()}`, is_dark: false, colors: {} })).id;

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export function multipart(name: string, bytes: Buffer, type: string) {
  const boundary = `----test${suffix()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every admin call of localizations, themes and the appearance editor, with the one permission that guards it. */
export const appearanceAdminCalls: { name: string; permission: string; call: (t: TestApp) => Promise<Call> }[] = [
  { name: 'GET localizations', permission: 'localizations.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/localizations' }) },
  {
    name: 'POST localization',
    permission: 'localizations.update',
    call: async () => ({ method: 'POST', url: '/api/v1/admin/localizations', body: { language: newCode('q'), name: 'New' } }),
  },
  {
    name: 'PUT localization',
    permission: 'localizations.update',
    call: async (t) => ({ method: 'PUT', url: `/api/v1/admin/localizations/${(await freshLanguage(t)).id}`, body: { name: 'Renamed' } }),
  },
  {
    name: 'DELETE localization',
    permission: 'localizations.update',
    call: async (t) => ({ method: 'DELETE', url: `/api/v1/admin/localizations/${(await freshLanguage(t)).id}` }),
  },
  {
    name: 'GET lines',
    permission: 'localizations.view',
    call: async (t) => ({ method: 'GET', url: `/api/v1/admin/localizations/${await trId(t)}/lines?query=email` }),
  },
  {
    name: 'PUT lines',
    permission: 'localizations.update',
    call: async (t) => ({ method: 'PUT', url: `/api/v1/admin/localizations/${(await freshLanguage(t)).id}/lines`, body: { lines: { Save: 'Speichern' } } }),
  },
  { name: 'export', permission: 'localizations.view', call: async (t) => ({ method: 'GET', url: `/api/v1/admin/localizations/${await trId(t)}/export` }) },
  {
    name: 'import',
    permission: 'localizations.update',
    call: async (t) => ({ method: 'POST', url: `/api/v1/admin/localizations/${(await freshLanguage(t)).id}/import`, body: { lines: { Cancel: 'Abbrechen' } } }),
  },
  { name: 'GET themes', permission: 'themes.view', call: async () => ({ method: 'GET', url: '/api/v1/admin/themes' }) },
  {
    name: 'POST theme',
    permission: 'themes.update',
    call: async () => ({ method: 'POST', url: '/api/v1/admin/themes', body: { name: 'Ocean', is_dark: false, colors: { '--be-primary': '#0077be' } } }),
  },
  {
    name: 'PUT theme',
    permission: 'themes.update',
    call: async (t) => ({
      method: 'PUT',
      url: `/api/v1/admin/themes/${await freshTheme(t)}`,
      body: { name: 'Sea', is_dark: false, colors: { '--be-primary': '0 100 200' } },
    }),
  },
  { name: 'DELETE theme', permission: 'themes.update', call: async (t) => ({ method: 'DELETE', url: `/api/v1/admin/themes/${await freshTheme(t)}` }) },
  { name: 'GET appearance', permission: 'appearance.update', call: async () => ({ method: 'GET', url: '/api/v1/admin/appearance' }) },
  {
    name: 'PUT appearance',
    permission: 'appearance.update',
    call: async () => ({ method: 'PUT', url: '/api/v1/admin/appearance', body: { 'branding.site_name': 'Drive' } }),
  },
  {
    name: 'upload branding',
    permission: 'appearance.update',
    call: async () => ({ method: 'POST', url: '/api/v1/admin/appearance/uploads', ...multipart('logo.png', PNG, 'image/png') }),
  },
];
