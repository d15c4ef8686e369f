import { describe, expect, it } from 'vitest';
import { mailSettings } from '../../../server/modules/settings/mail.js';
import type { SettingValue } from '../../../server/modules/settings/defaults.js';

describe('mailSettings (issue 31.2: moved out of services.ts)', () => {
  it('reads the mail server and sender the admin set, empty strings where unset or not text', async () => {
    const values: Record<string, SettingValue> = { 'mail.url': 'smtp://mail.example.com:25', 'mail.from': 'Drive <drive@example.com>' };
    expect(await mailSettings({ get: async (key) => values[key] ?? null })()).toEqual({ url: 'smtp://mail.example.com:25', from: 'Drive <drive@example.com>' });
    expect(await mailSettings({ get: async () => null })()).toEqual({ url: '', from: '' });
    expect(await mailSettings({ get: async (key) => (key === 'mail.url' ? 5 : true) })()).toEqual({ url: '', from: '' });
  });
});
