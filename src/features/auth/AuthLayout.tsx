import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';
import { LanguageSwitcher } from '../locale/LanguageSwitcher';
import { Logo } from '../navigation/Logo';

export const APP_VERSION_LABEL = 'V 4.02';

/** Spec §2 "Shared authentication layout": side image, back arrow, logo, version, language. */
export function AuthLayout({ children }: { children?: ReactNode }) {
  const { t } = useTrans();
  return (
    <div className="flex min-h-dvh bg-bg text-fg">
      <div aria-hidden="true" className="hidden w-5/12 bg-primary bg-[url('/images/auth-side.svg')] bg-cover bg-center md:block" />
      <main className="flex flex-1 flex-col px-4 py-6 md:px-12">
        <div className="flex items-center gap-2">
          <Link
            to="/"
            aria-label={t('Back to home')}
            className="inline-flex size-10 items-center justify-center rounded-full hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
          >
            <Icon name="arrowBack" />
          </Link>
          <div className="ml-auto">
            <LanguageSwitcher />
          </div>
        </div>
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-8">
          <Logo to="/" className="mb-8 self-center" />
          {children ?? <Outlet />}
        </div>
        <p className="text-center text-xs text-fg-muted">{APP_VERSION_LABEL}</p>
      </main>
    </div>
  );
}
