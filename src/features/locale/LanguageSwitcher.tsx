import { lazy, Suspense, useState } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';
import { useBootstrap } from '../bootstrap/store';
import { LANGUAGE_BUTTON_CLASS } from './language-button';

// The menu's dialog trigger pulls react-aria's popover, modal and dialog code (~30 KB gzip) that
// /login's first paint would otherwise wait for; it loads right after, behind a look-alike button.
const LanguageMenu = lazy(() => import('./LanguageMenu').then((m) => ({ default: m.LanguageMenu })));

/** Spec §2: the language panel, shown only when more than one localization is on. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { localizations, settings } = useBootstrap();
  const { t, language } = useTrans();
  // A click on the stand-in is not lost: the menu opens as soon as its code is there.
  const [clickedEarly, setClickedEarly] = useState(false);
  if (!settings.i18n.enable || localizations.length < 2) return null;
  const current = localizations.find((l) => l.language === language);
  const placeholder = (
    <button type="button" aria-label={t('Language')} className={LANGUAGE_BUTTON_CLASS} onClick={() => setClickedEarly(true)}>
      <Icon name="translate" className="size-5" />
      {!compact && <span className="text-sm">{current?.name ?? language}</span>}
    </button>
  );
  return (
    <Suspense fallback={placeholder}>
      <LanguageMenu compact={compact} defaultOpen={clickedEarly} />
    </Suspense>
  );
}
