import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors';
import { formatBytes } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Spinner } from '../../ui/Spinner';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { formatAmount } from '../pricing/plans';
import { useCancelSubscription, usePortal, useRefreshBilling, useResumeSubscription, useSubscription, type SubscriptionState } from './api';
import { ChangePlanDialog } from './ChangePlanDialog';
import { InvoicesTable } from './InvoicesTable';

type Dialog = 'cancel' | 'resume' | 'change' | null;
/** What the page waits to see after a call, until Stripe's webhook has arrived. */
type Awaiting = ((state: SubscriptionState) => boolean) | undefined;

/** /billing: the plan, its next charge or end, change, cancel and resume, invoices and the payment method. */
export function BillingPage() {
  const { t, language } = useTrans();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [awaiting, setAwaiting] = useState<Awaiting>(undefined);
  const state = useSubscription(awaiting);
  const refresh = useRefreshBilling();
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const portal = usePortal();
  // The change Stripe's webhook brings has landed (polling stops by itself): refresh what depends on the plan.
  const reached = awaiting !== undefined && state.data !== undefined && awaiting(state.data);
  useEffect(() => {
    if (reached) void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per arrival
  }, [reached]);
  if (!state.data) return <Spinner />;
  const { subscription, plan, space } = state.data;
  const active = subscription?.valid ? subscription : null;
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(language, { dateStyle: 'long' }) : '');
  const waitFor = (check: (next: SubscriptionState) => boolean) => {
    setAwaiting(() => check);
    void refresh();
  };

  return (
    <section className="mx-auto max-w-3xl space-y-8 px-4 py-8">
      <h1 className="text-2xl font-semibold">{t('Billing')}</h1>

      {space.over && (
        <p role="alert" className="rounded-lg bg-warning/15 px-4 py-3 text-sm">
          {t('You use more space than your plan gives. Your files are safe, but uploads wait until you delete some files or upgrade.')}
        </p>
      )}
      {active?.status === 'past_due' && (
        <p role="alert" className="rounded-lg bg-danger/15 px-4 py-3 text-sm">
          {t('A payment failed: update your payment method to keep your plan.')}
        </p>
      )}

      <div className="rounded-2xl border border-divider p-6" data-testid="current-plan">
        <h2 className="text-sm text-fg-muted">{t('Current plan')}</h2>
        <p className="text-xl font-semibold">{plan ? t(plan.name) : t('Free')}</p>
        {active?.price && (
          <p className="text-fg-muted">
            {formatAmount(active.price.amount, active.price.currency, language)} {t(active.price.interval === 'year' ? '/ year' : '/ month')}
          </p>
        )}
        <p className="mt-2 text-sm">
          {t(':used of :available used', {
            used: formatBytes(space.used),
            available: space.available === null ? t('Unlimited') : formatBytes(space.available),
          })}
        </p>
        {active && (
          <p className="mt-2 text-sm font-semibold" data-testid="plan-dates">
            {active.on_grace_period ? t('Ends on :date', { date: date(active.ends_at) }) : t('Renews on :date', { date: date(active.renews_at) })}
          </p>
        )}
        {!active && <p className="mt-2 text-sm">{t('You are on the free plan.')}</p>}
        <div className="mt-4 flex flex-wrap gap-2">
          {active ? (
            <>
              <Button className={primaryButtonClass} onPress={() => setDialog('change')}>
                {t('Change plan')}
              </Button>
              {active.on_grace_period ? (
                <Button className={secondaryButtonClass} onPress={() => setDialog('resume')}>
                  {t('Resume subscription')}
                </Button>
              ) : (
                <Button className={secondaryButtonClass} onPress={() => setDialog('cancel')}>
                  {t('Cancel subscription')}
                </Button>
              )}
            </>
          ) : (
            <Link to="/pricing" className={primaryButtonClass}>
              {t('See plans')}
            </Link>
          )}
        </div>
      </div>

      {active && (
        <div className="rounded-2xl border border-divider p-6">
          <h2 className="mb-2 text-lg font-semibold">{t('Payment method')}</h2>
          <p className="mb-3 text-sm text-fg-muted">{t("Your card is kept by Stripe; change it on Stripe's page.")}</p>
          <Button
            className={secondaryButtonClass}
            isDisabled={portal.isPending}
            onPress={() => portal.mutate(undefined, { onError: (e) => toast.danger(getErrorMessage(e)) })}
          >
            {t('Update payment method')}
          </Button>
        </div>
      )}

      <InvoicesTable />

      {dialog === 'cancel' && active && (
        <ConfirmDialog
          title={t('Cancel subscription')}
          body={t('Cancel your subscription? Your plan stays until :date, then you move to the free plan. Your files are kept.', {
            date: date(active.renews_at),
          })}
          confirmLabel={t('Cancel subscription')}
          isPending={cancel.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            cancel.mutate(undefined, {
              onSuccess: ({ message }) => {
                toast.positive(message);
                setDialog(null);
                waitFor((next) => next.subscription?.on_grace_period === true);
              },
              onError: (e) => toast.danger(getErrorMessage(e)),
            })
          }
        />
      )}
      {dialog === 'resume' && active && (
        <ConfirmDialog
          title={t('Resume subscription')}
          body={t('Resume your subscription? It renews on :date.', { date: date(active.ends_at) })}
          confirmLabel={t('Resume subscription')}
          isPending={resume.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            resume.mutate(undefined, {
              onSuccess: ({ message }) => {
                toast.positive(message);
                setDialog(null);
                waitFor((next) => next.subscription?.on_grace_period === false);
              },
              onError: (e) => toast.danger(getErrorMessage(e)),
            })
          }
        />
      )}
      {dialog === 'change' && active && (
        <ChangePlanDialog
          current={active}
          onClose={() => setDialog(null)}
          onChanged={(priceId) => {
            setDialog(null);
            waitFor((next) => next.subscription?.price?.id === priceId);
          }}
        />
      )}
    </section>
  );
}
