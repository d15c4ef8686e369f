import { useCallback } from 'react';
import { useBootstrap } from '../features/bootstrap/store';
import { i18n, syncLanguage } from './i18n';
import type { MessageValues } from './format-message';

export type TranslateFn = (key: string, values?: MessageValues) => string;

/** Translations follow the bootstrap data, so a language change re-renders. */
export function useTrans(): { t: TranslateFn; language: string } {
  const { i18n: data } = useBootstrap();
  syncLanguage(data.language, data.lines);
  const t = useCallback<TranslateFn>((key, values) => i18n.t(key, { ...values, lng: data.language, defaultValue: key }), [data]);
  return { t, language: data.language };
}
