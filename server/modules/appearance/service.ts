import { ValidationError } from '../../lib/errors.js';
import type { SettingValue } from '../settings/defaults.js';
import type { SettingsService } from '../settings/service.js';
import type { ThemesService } from '../themes/service.js';
import { THEME_NOT_FOUND } from '../themes/service.js';
import type { AppearanceInput, AppearanceValues } from './schemas.js';

const str = (value: SettingValue | undefined, fallback = '') => (typeof value === 'string' ? value : fallback);

/**
 * Branding, theme settings and custom code: the settings the appearance
 * editor saves. Every write goes through `update` (bootstrap data caches them).
 */
export class AppearanceService {
  constructor(
    private readonly settings: Pick<SettingsService, 'all' | 'set'>,
    private readonly themes: Pick<ThemesService, 'get'>,
  ) {}

  async read(): Promise<AppearanceValues> {
    const all = await this.settings.all();
    const defaultId = all['themes.default_id'];
    return {
      'branding.site_name': str(all['branding.site_name'], 'Drive'),
      'branding.logo_light': str(all['branding.logo_light']),
      'branding.logo_dark': str(all['branding.logo_dark']),
      'branding.logo_light_mobile': str(all['branding.logo_light_mobile']),
      'branding.logo_dark_mobile': str(all['branding.logo_dark_mobile']),
      'branding.favicon': str(all['branding.favicon']),
      'themes.user_change': all['themes.user_change'] !== false,
      'themes.default_id': typeof defaultId === 'number' ? defaultId : null,
      'custom_code.css': str(all['custom_code.css']),
      'custom_code.html': str(all['custom_code.html']),
    };
  }

  /** Stores any subset; the keys changed are answered for the activity log. */
  async update(input: AppearanceInput): Promise<{ values: AppearanceValues; keys: string[] }> {
    const values = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Record<string, SettingValue>;
    const defaultId = values['themes.default_id'];
    if (typeof defaultId === 'number') {
      await this.themes.get(defaultId).catch(() => {
        throw ValidationError.field('themes.default_id', THEME_NOT_FOUND);
      });
    }
    await this.settings.set(values);
    return { values: await this.read(), keys: Object.keys(values) };
  }
}
