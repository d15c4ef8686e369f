import { Navigate, useLocation, useParams } from 'react-router-dom';
import { isApiError } from '../../api/api-error';
import { NotFoundPage } from '../../app/pages/NotFoundPage';
import { useTrans } from '../../i18n/use-trans';
import { Spinner } from '../../ui/Spinner';
import { useBootstrap } from '../bootstrap/store';
import { useCustomPage } from './api';
import { usePageHead } from './use-page-head';

/**
 * A custom page (spec §2 "Custom page"): title and HTML body inside the app
 * shell (navbar and footer). A guest refused with 401/403 goes to /login and
 * comes back after signing in; 404 is the not-found page; anything else says
 * so and asks to try later.
 */
export function CustomPageScreen() {
  const { pageSlug = '' } = useParams();
  const { t } = useTrans();
  const { user } = useBootstrap();
  const location = useLocation();
  const query = useCustomPage(pageSlug);
  usePageHead(query.data?.seo);

  if (query.isPending) return <Spinner />;
  if (query.isError) {
    const status = isApiError(query.error) ? query.error.status : 0;
    if (!user && (status === 401 || status === 403)) {
      return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname)}`} replace />;
    }
    if (status === 404) return <NotFoundPage />;
    return (
      <section role="alert" className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="mb-2 text-xl font-semibold">{t('There was an issue loading this page')}</h1>
        <p className="text-fg-muted">{t('Please try again later')}</p>
      </section>
    );
  }
  const { page } = query.data;
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">{page.title}</h1>
      {/* Sanitised by the server on save and again on output (an allowlist), and the page's CSP forbids inline script. */}
      <div className="custom-page-body space-y-4 leading-relaxed" dangerouslySetInnerHTML={{ __html: page.body }} />
    </article>
  );
}
