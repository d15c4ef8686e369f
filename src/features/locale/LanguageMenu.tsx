import { Button, DialogTrigger } from 'react-aria-components';
import { useTrans } from '../../i18n/use-trans';
import { useHydrated } from '../../ui/use-hydrated';
import { Icon } from '../../ui/icons';
import { ResponsivePopover } from '../../ui/ResponsivePopover';
import { useBootstrap } from '../bootstrap/store';
import { useChangeLocale } from './use-change-locale';
import { LANGUAGE_BUTTON_CLASS } from './language-button';

/**
 * The switcher once its code has loaded (see LanguageSwitcher). Spec §2: a panel
 * that expands on click, collapses on an outside click, lists the localizations
 * and highlights the current one.
 */
export function LanguageMenu({ compact = false, defaultOpen = false }: { compact?: boolean; defaultOpen?: boolean }) {
  const { localizations } = useBootstrap();
  const { t, language } = useTrans();
  const changeLocale = useChangeLocale();
  const current = localizations.find((l) => l.language === language);
  // In a page the server wrote, the button is there before its handler (the app starts after the first paint):
  // disabled until React runs it, so a press is not lost on it.
  const hydrated = useHydrated();

  return (
    <DialogTrigger defaultOpen={defaultOpen}>
      <Button aria-label={t('Language')} className={LANGUAGE_BUTTON_CLASS} isDisabled={!hydrated}>
        <Icon name="translate" className="size-5" />
        {!compact && <span className="text-sm">{current?.name ?? language}</span>}
      </Button>
      <ResponsivePopover label={t('Language')} className="min-w-44 py-1">
        {({ close }) => (
          <ul>
            {localizations.map((l) => {
              const selected = l.language === language;
              return (
                <li key={l.id}>
                  <Button
                    aria-current={selected ? 'true' : undefined}
                    isDisabled={changeLocale.isPending}
                    onPress={() => {
                      if (!selected) changeLocale.mutate(l.language);
                      close();
                    }}
                    className={`block w-full px-4 py-2 text-left text-sm hover:bg-fg/5 focus-visible:bg-fg/10 focus-visible:outline-none ${
                      selected ? 'bg-primary/10 font-semibold text-primary' : ''
                    }`}
                  >
                    {l.name}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </ResponsivePopover>
    </DialogTrigger>
  );
}
