import { useLayoutEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { readCookie, writeCookie } from '../../api/cookies';
import { useTrans } from '../../i18n/use-trans';
import { useHydrated } from '../../ui/use-hydrated';
import { useBootstrap } from '../bootstrap/store';
import { MenuItemLink } from '../navigation/MenuItemLink';

export const COOKIE_NOTICE_COOKIE = 'cookie_notice';
export const COOKIE_NOTICE_DAYS = 30;

/** Spec §2 "Cookie notice": OK stores a cookie for 30 days and hides the bar. */
export function CookieNotice() {
  const { settings } = useBootstrap();
  const { t } = useTrans();
  const [accepted, setAccepted] = useState(() => readCookie(COOKIE_NOTICE_COOKIE) === 'true');
  const notice = settings.cookie_notice;
  const shown = notice.enable && !accepted;
  // The server writes the notice into its pages before the app runs (which starts after the first paint): OK is
  // disabled until React runs it, so a press is not lost on it.
  const hydrated = useHydrated();
  const bar = useRef<HTMLDivElement>(null);

  // A bottom bar reserves its height (--cookie-bar): the page can scroll its last lines (footer, version
  // label) above it, and toasts and the upload panel sit above it instead of under it.
  useLayoutEffect(() => {
    const element = bar.current;
    if (!shown || notice.position === 'top' || !element) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty('--cookie-bar', `${element.offsetHeight}px`);
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--cookie-bar');
    };
  }, [shown, notice.position]);

  if (!shown) return null;

  const handleAccept = () => {
    writeCookie(COOKIE_NOTICE_COOKIE, 'true', COOKIE_NOTICE_DAYS);
    setAccepted(true);
  };

  return (
    <div
      ref={bar}
      role="region"
      aria-label={t('Cookie notice')}
      className={`fixed inset-x-0 z-40 flex flex-col items-center justify-center gap-3 bg-fg px-4 py-3 text-sm text-bg md:flex-row ${
        notice.position === 'top' ? 'top-0' : 'bottom-0'
      }`}
    >
      <p>
        {t('We use cookies to optimize site functionality and provide you with the best possible experience.')}
        {notice.button && (
          <>
            {' '}
            <MenuItemLink item={notice.button} className="underline">
              {t(notice.button.label)}
            </MenuItemLink>
          </>
        )}
      </p>
      <Button onPress={handleAccept} isDisabled={!hydrated} className="rounded bg-primary px-4 py-1.5 font-semibold text-on-primary focus-visible:outline-2">
        {t('OK')}
      </Button>
    </div>
  );
}
