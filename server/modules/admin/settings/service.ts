import type { Mailer } from '../../../mail/mailer.js';
import { ValidationError } from '../../../lib/errors.js';
import type { LocalizationsService } from '../../localizations/service.js';
import { settingDefaults, type SettingDefinition, type SettingValue } from '../../settings/defaults.js';
import type { SettingsService } from '../../settings/service.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { EDITABLE_KEYS, settingGroups, type SettingsInput } from './schemas.js';

export const TEST_MAIL_FAILED = 'Could not send the test mail: :error';
const definitions: Record<string, SettingDefinition> = settingDefaults;
const isSecret = (key: string) => definitions[key]?.secret === true;

/**
 * The settings screens. Everything is read from the database on use, so a
 * change takes effect on the next request, without a restart. Secrets are
 * write-only: never answered, never logged (the log records keys only).
 */
export class AdminSettingsService {
  constructor(
    private readonly settings: SettingsService,
    private readonly localizations: Pick<LocalizationsService, 'find'>,
    private readonly mailer: Pick<Mailer, 'send' | 'current'>,
    private readonly activity: AdminActivity,
  ) {}

  async read() {
    const all = await this.settings.all({ includePrivate: true });
    const settings: Record<string, SettingValue> = {};
    const secrets: Record<string, boolean> = {};
    for (const key of EDITABLE_KEYS) {
      if (isSecret(key)) secrets[key] = typeof all[key] === 'string' ? all[key] !== '' : all[key] !== null && all[key] !== undefined;
      else settings[key] = all[key] ?? null;
    }
    const groups = Object.fromEntries(Object.entries(settingGroups).map(([group, keys]) => [group, Object.keys(keys)]));
    return { groups, settings, secrets, mail: { configured: (await this.mailer.current()).url !== '' } };
  }

  async update(caller: AdminCaller, input: SettingsInput) {
    const values = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Record<string, SettingValue>;
    const language = values['i18n.default_localization'];
    if (typeof language === 'string' && !(await this.localizations.find(language))) {
      throw ValidationError.field('i18n.default_localization', 'This language is not available.');
    }
    await this.settings.set(values);
    await this.activity.record(caller, {
      action: 'settings.updated',
      subjectType: 'settings',
      details: { keys: Object.keys(values), secrets: Object.keys(values).filter(isSecret) },
    });
    return this.read();
  }

  /** Sends a test mail with the settings in force now, to the caller unless an address is given. */
  async sendTestMail(caller: AdminCaller, to: string | undefined): Promise<void> {
    try {
      await this.mailer.send({
        to: to ?? caller.email,
        subject: 'Test mail',
        text: 'This is a test mail from the admin area. Mail is working.',
        html: '<p>This is a test mail from the admin area. Mail is working.</p>',
      });
    } catch (error) {
      throw ValidationError.field('mail.url', TEST_MAIL_FAILED, { error: error instanceof Error ? error.message : String(error) });
    }
    await this.activity.record(caller, { action: 'settings.test_mail', subjectType: 'settings', subjectLabel: to ?? caller.email });
  }
}
