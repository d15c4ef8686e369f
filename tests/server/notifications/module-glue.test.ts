import { describe, expect, it } from 'vitest';
import { channelSwitch, recipients, vapidSubject } from '../../../server/modules/notifications/index.js';

/** The glue the composition root used to hold, now the notifications module's own. */
describe('vapidSubject', () => {
  it('is the site itself when served over https', () => {
    expect(vapidSubject('https://drive.example.com', 'Drive <drive@example.com>')).toBe('https://drive.example.com');
  });

  it.each([
    ['Drive <drive@example.com>', 'mailto:drive@example.com'],
    ['drive@example.com', 'mailto:drive@example.com'],
  ])('is the mail sender %s as a mailto: URL otherwise', (from, subject) => {
    expect(vapidSubject('http://localhost:8080', from)).toBe(subject);
  });
});

describe('recipients', () => {
  const user = { id: 7, email: 'ada@example.com', language: 'tr' };
  const lines = { 1: { hello: 'en' }, 2: { hello: 'tr' } } as Record<number, Record<string, string>>;
  const deps = (settings: Record<string, unknown>, known: Record<string, number>) => ({
    users: { findById: async (id: number) => (id === user.id ? user : undefined) } as never,
    settings: { get: async (key: string) => settings[key] as never, vapidKeys: async () => ({ publicKey: '', privateKey: '' }) },
    localizations: {
      resolve: async (candidates: (string | null | undefined)[]) => {
        const hit = candidates.find((c) => c && known[c] !== undefined);
        return hit ? ({ id: known[hit]! } as never) : undefined;
      },
      lines: async (id: number) => lines[id]!,
    },
  });

  it('answers the address and the lines of the user’s language', async () => {
    expect(await recipients(deps({}, { en: 1, tr: 2 }))(7)).toEqual({ email: 'ada@example.com', lines: { hello: 'tr' } });
  });

  it('falls back to the site default language, then to no lines', async () => {
    expect(await recipients(deps({ 'i18n.default_localization': 'en' }, { en: 1 }))(7)).toEqual({ email: 'ada@example.com', lines: { hello: 'en' } });
    expect(await recipients(deps({ 'i18n.default_localization': 'de' }, { en: 1 }))(7)).toEqual({ email: 'ada@example.com', lines: null });
  });

  it('answers nothing for a user who is gone', async () => {
    expect(await recipients(deps({}, { en: 1 }))(8)).toBeUndefined();
  });
});

describe('channelSwitch', () => {
  it('keeps a channel on unless the admin switched it off', async () => {
    const values: Record<string, unknown> = { 'notifications.channels.email': false };
    const on = channelSwitch({ get: async (key: string) => values[key] as never });
    expect(await on('email')).toBe(false);
    expect(await on('browser')).toBe(true);
  });
});
