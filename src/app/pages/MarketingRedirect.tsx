import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { useBootstrap } from '../../features/bootstrap/store';
import { getLandingPath } from '../landing';
import { Spinner } from '../../ui/Spinner';

export function marketingUrl(base: string, page: string): string {
  const root = base.replace(/\/+$/, '');
  return page ? `${root}/${page}` : root;
}

/**
 * `/`, contact, offering, about and features live on the external marketing
 * site. Without one configured, `/` goes to the landing path (spec §2).
 */
export function MarketingRedirect({ page }: { page: string }) {
  const { settings, user } = useBootstrap();
  const base = settings.site.marketing_url;
  useEffect(() => {
    if (base) window.location.replace(marketingUrl(base, page));
  }, [base, page]);
  if (!base) return <Navigate to={page ? `/pages/${page}` : getLandingPath(user)} replace />;
  return <Spinner />;
}
