import { useState } from 'react';
import { Button } from 'react-aria-components';
import { readCookie, writeCookie } from '../../api/cookies';
import { useTrans } from '../../i18n/use-trans';
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
  if (!notice.enable || accepted) return null;

  const handleAccept = () => {
    writeCookie(COOKIE_NOTICE_COOKIE, 'true', COOKIE_NOTICE_DAYS);
    setAccepted(true);
  };

  return (
    <div
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
      <Button onPress={handleAccept} className="rounded bg-primary px-4 py-1.5 font-semibold text-on-primary focus-visible:outline-2">
        {t('OK')}
      </Button>
    </div>
  );
}
