import { Link, useNavigate } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { useBootstrap } from '../../features/bootstrap/store';

/**
 * Stands in for a screen a later issue builds: it says so plainly, in the
 * product's own look, with a way back (the previous page, or home).
 */
export function PlaceholderPage({ name }: { name: string }) {
  const { t } = useTrans();
  const navigate = useNavigate();
  const { user, branding } = useBootstrap();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center" data-placeholder={name}>
      <Icon name="schedule" className="size-16 text-primary/70" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-semibold">{t(name)}</h1>
      <p className="mt-2 text-fg-muted">{t('This part of :siteName is coming soon. Everything else works as usual.', { siteName: branding.site_name })}</p>
      <div className="mt-6 flex gap-3">
        <button type="button" className={secondaryButtonClass} onClick={() => void navigate(-1)}>
          {t('Back')}
        </button>
        <Link to={user ? '/drive' : '/'} className={primaryButtonClass}>
          {user ? t('Go to my drive') : t('Home')}
        </Link>
      </div>
    </section>
  );
}
