import type { SettingsService } from './service.js';

/** The mail server and sender the admin set (`mail.url`, `mail.from`); empty strings where unset. */
export const mailSettings = (settings: Pick<SettingsService, 'get'>) => async (): Promise<{ url: string; from: string }> => {
  const [url, from] = await Promise.all([settings.get('mail.url'), settings.get('mail.from')]);
  return { url: typeof url === 'string' ? url : '', from: typeof from === 'string' ? from : '' };
};
