import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import type { SettingsService } from '../settings/service.js';

const toHex = (triplet: string | undefined, fallback: string) => {
  const parts = triplet?.trim().split(/\s+/).map(Number);
  if (!parts || parts.length !== 3 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return fallback;
  return `#${parts.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
};

/** Home screens truncate past ~12 characters: prefer the first word to a cut word. */
function shortName(name: string): string {
  if (name.length <= 12) return name;
  const first = name.split(/\s+/)[0] ?? name;
  return first.length <= 12 ? first : name.slice(0, 12);
}

/**
 * The web app manifest, built from branding and the default light theme so an
 * installed app carries the site's own name and colours (the build ships a
 * generic one for when the server cannot be asked).
 */
export class ManifestService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
  ) {}

  async build() {
    const configured = await this.settings.get('branding.site_name');
    const siteName = typeof configured === 'string' && configured ? configured : 'Drive';
    const theme = await this.db.selectFrom('themes').select('colors').where('default_light', '=', 1).executeTakeFirst();
    const colors = parseJson<Record<string, string>>(theme?.colors, {});
    return {
      id: '/',
      name: siteName,
      short_name: shortName(siteName),
      description: 'Store, organise and share your files, online and offline.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: toHex(colors['--be-primary'], '#1a73e8'),
      background_color: toHex(colors['--be-background'], '#ffffff'),
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    };
  }
}
