import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { formatBytes } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { Spinner } from '../../ui/Spinner';
import { useRefreshBilling, useSubscription } from '../billing/api';

/**
 * Stripe's success redirect. The subscription becomes ours only when Stripe's
 * verified webhook says so, so this page waits for it, then shows the new space.
 */
export function CheckoutDonePage() {
  const { t } = useTrans();
  const { productId } = useParams();
  const active = useSubscription((state) => state.subscription?.valid === true && String(state.subscription.product?.id) === productId);
  const refresh = useRefreshBilling();
  const done = active.data?.subscription?.valid === true && String(active.data.subscription.product?.id) === productId;
  useEffect(() => {
    if (done) void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when it becomes active
  }, [done]);

  if (!done) {
    return (
      <section className="mx-auto max-w-lg px-4 py-16 text-center">
        <Spinner />
        <p className="mt-4">{t('Confirming your payment...')}</p>
      </section>
    );
  }
  const space = active.data?.space.available ?? null;
  return (
    <section className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="mb-4 text-2xl font-semibold">{t('Thank you! Your subscription is active.')}</h1>
      <p className="mb-8" data-testid="new-space">
        {t('Your storage space is now :space.', { space: space === null ? t('Unlimited') : formatBytes(space) })}
      </p>
      <div className="flex justify-center gap-4">
        <Link to="/drive" className="rounded-full bg-primary px-4 py-2 font-semibold text-on-primary hover:bg-primary-dark">
          {t('Go to my drive')}
        </Link>
        <Link to="/billing" className="rounded-full border border-primary px-4 py-2 font-semibold text-primary hover:bg-primary/10">
          {t('Go to billing')}
        </Link>
      </div>
    </section>
  );
}
