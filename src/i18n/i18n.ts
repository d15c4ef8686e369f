import i18next from 'i18next';
import type { PostProcessorModule } from 'i18next';
import { formatMessage } from './format-message';
import type { MessageValues } from './format-message';

export const DEFAULT_LOCALE = 'en';

// Our own plural and placeholder syntax runs as an i18next post-processor, so
// i18next stays the one place that owns languages and resources.
const serverSyntax: PostProcessorModule = {
  type: 'postProcessor',
  name: 'server-syntax',
  process: (value: string, _key: string | string[], options: MessageValues) => formatMessage(value, options),
};

export const i18n = i18next.createInstance();
i18n.use(serverSyntax);
void i18n.init({
  lng: DEFAULT_LOCALE,
  fallbackLng: false,
  initAsync: false,
  // Keys are English sentences with dots and colons in them.
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
  postProcess: ['server-syntax'],
  resources: {},
  showSupportNotice: false,
});

const synced = new WeakSet<Record<string, string>>();

/** Loads one language's lines (once per lines object) and makes it current. */
export function syncLanguage(language: string, lines: Record<string, string>): void {
  if (!synced.has(lines)) {
    synced.add(lines);
    i18n.removeResourceBundle(language, 'translation');
    i18n.addResourceBundle(language, 'translation', lines, false, true);
  }
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

export function translate(key: string, values?: MessageValues): string {
  return i18n.t(key, { defaultValue: key, ...values });
}
