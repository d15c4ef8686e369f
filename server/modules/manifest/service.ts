import type { BrandingFiles } from '../appearance/branding-files.js';
import type { SettingsService } from '../settings/service.js';
import type { ThemesService } from '../themes/service.js';

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
 * Where the installed app's OS integrations land. The share target is
 * answered by the service worker (sw/share-target.ts) and never reaches the
 * server; a .docx opened from the OS is handed to the page's launch consumer
 * (src/features/pwa/launch-consumer.ts) on the drive.
 */
export const SHARE_TARGET_ACTION = '/share-target';
export const FILE_HANDLER_ACTION = '/drive';
export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const osIntegrations = {
  share_target: {
    action: SHARE_TARGET_ACTION,
    method: 'POST',
    enctype: 'multipart/form-data',
    // Any file a share sheet offers goes to the upload queue, as a picked file would.
    params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['*/*'] }] },
  },
  file_handlers: [{ action: FILE_HANDLER_ACTION, accept: { [DOCX_MIME]: ['.docx'] } }],
  // A file opened from the OS goes to the window already open (its launch consumer), not a new one.
  launch_handler: { client_mode: 'focus-existing' },
};

const shippedIcons = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

/**
 * The web app manifest, built from the saved branding and the site's default
 * theme so an installed app carries the site's own name, colours and icon
 * (the build ships a generic one for when the server cannot be asked).
 */
export class ManifestService {
  constructor(
    private readonly settings: Pick<SettingsService, 'all'>,
    private readonly themes: Pick<ThemesService, 'list'>,
    private readonly files: Pick<BrandingFiles, 'typeOf'>,
  ) {}

  async build() {
    const all = await this.settings.all();
    const configured = all['branding.site_name'];
    const siteName = typeof configured === 'string' && configured ? configured : 'Drive';
    const themes = await this.themes.list();
    const defaultId = all['themes.default_id'];
    const theme = themes.find((t) => !t.is_dark && t.id === defaultId) ?? themes.find((t) => t.default_light) ?? themes[0];
    const colors = theme?.colors ?? {};
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
      icons: [...(await this.brandedIcons(all)), ...shippedIcons],
      ...osIntegrations,
    };
  }

  /** An uploaded favicon (else light logo) comes first, so installers prefer the site's own mark. */
  private async brandedIcons(all: Record<string, unknown>) {
    const icons = [];
    for (const key of ['branding.favicon', 'branding.logo_light']) {
      const src = all[key];
      if (typeof src !== 'string' || !src) continue;
      const type = await this.files.typeOf(src);
      if (type && type !== 'image/gif') icons.push({ src, sizes: 'any', type, purpose: 'any' });
      if (icons.length) break;
    }
    return icons;
  }
}
