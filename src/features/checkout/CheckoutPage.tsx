import { useEffect } from 'react';
import { Button } from 'react-aria-components';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { saveOnboardingSelection } from '../../app/landing';
import { ApiError } from '../../api/api-error';
import { formatBytes } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { Spinner } from '../../ui/Spinner';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { useBootstrap } from '../bootstrap/store';
import { useCheckout, useProducts } from '../billing/api';
import { NotFoundPage } from '../../app/pages/NotFoundPage';
import { formatAmount } from '../pricing/plans';

/**
 * /checkout/{productId}/{priceId}: a summary of the chosen plan and price and
 * the way to Stripe Checkout. Stripe sends the user back to …/done, or here
 * with ?cancelled=1. Reaching it uses up the onboarding selection.
 */
export function CheckoutPage() {
  const { t, language } = useTrans();
  const { productId, priceId } = useParams();
  const [search] = useSearchParams();
  const { billing } = useBootstrap();
  const products = useProducts();
  const checkout = useCheckout();
  useEffect(() => saveOnboardingSelection(null), []);

  if (products.isPending) return <Spinner />;
  const product = products.data?.find((p) => String(p.id) === productId);
  const price = product?.prices.find((p) => String(p.id) === priceId);
  if (!product || !price) return <NotFoundPage />;
  const yearly = price.interval === 'year' || (price.interval === 'month' && price.interval_count >= 12);
  const error = checkout.error instanceof ApiError ? checkout.error.message : checkout.error ? t('There was an issue. Please try again.') : null;

  return (
    <section className="mx-auto max-w-lg px-4 py-10">
      <h1 className="mb-6 text-2xl font-semibold">{t('Checkout')}</h1>
      {search.get('cancelled') && (
        <p role="status" className="mb-4 rounded-lg bg-warning/15 px-4 py-3 text-sm">
          {t('Payment cancelled. You have not been charged.')}
        </p>
      )}
      <div className="rounded-2xl border border-divider p-6" data-testid="checkout-summary">
        <p className="text-sm text-fg-muted">{t('Your plan')}</p>
        <h2 className="text-xl font-semibold">{t(product.name)}</h2>
        <p className="mt-2 text-2xl font-bold">
          {formatAmount(price.amount, price.currency, language)} <span className="text-base font-normal text-fg-muted">{t(yearly ? '/ year' : '/ month')}</span>
        </p>
        <p className="text-sm text-fg-muted">{t(yearly ? 'Billed yearly' : 'Billed monthly')}</p>
        <p className="mt-4 font-semibold">
          {product.available_space === null ? t('Unlimited storage') : t(':space of storage', { space: formatBytes(product.available_space) })}
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
          {product.feature_list.map((feature) => (
            <li key={feature}>{t(feature)}</li>
          ))}
        </ul>
      </div>
      {error && (
        <p role="alert" className="mt-4 text-sm text-danger">
          {error}{' '}
          <Link to="/billing" className="text-primary hover:underline">
            {t('Go to billing')}
          </Link>
        </p>
      )}
      {billing.enable ? (
        <Button
          className={`${primaryButtonClass} mt-6 w-full`}
          isDisabled={checkout.isPending || checkout.isSuccess}
          onPress={() => checkout.mutate({ productId: product.id, priceId: price.id })}
        >
          {t('Continue to payment')}
        </Button>
      ) : (
        <p className="mt-6 text-sm">{t('Billing is not enabled on this site.')}</p>
      )}
      <p className="mt-3 text-center text-xs text-fg-muted">{t('Payments are handled by Stripe. Your card details never reach this site.')}</p>
      <p className="mt-6 text-center">
        <Link to="/pricing" className="text-sm text-primary hover:underline">
          {t('Back to plans')}
        </Link>
      </p>
    </section>
  );
}
