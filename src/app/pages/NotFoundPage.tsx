import { Link } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';

export function NotFoundPage() {
  const { t } = useTrans();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-6 px-4 py-24 text-center">
      <p aria-hidden="true" className="text-7xl font-bold text-primary/40">
        404
      </p>
      <h1 className="text-2xl font-semibold">{t("Looks like you've found the doorway to the great nothing")}</h1>
      <Link
        to="/"
        className="rounded bg-primary px-5 py-2 font-semibold text-on-primary hover:bg-primary-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      >
        {t('Take me there!')}
      </Link>
    </section>
  );
}
