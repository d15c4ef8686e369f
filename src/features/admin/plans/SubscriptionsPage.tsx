import { useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { inputClass, selectClass } from '../../../ui/form/field-classes';
import { toast } from '../../../ui/toast/toast-store';
import { formatAmount } from '../../pricing/plans';
import { AdminTable } from '../AdminTable';
import { useAdminSubscriptions, useCancelSubscription, usePlans, type SubscriptionQuery } from '../api';
import { formatDate } from '../Pager';

const STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid'];
type Sort = NonNullable<SubscriptionQuery['orderBy']>;

/** Every subscription, filtered by status, plan and user; cancel now or at the end of the paid period. */
export function SubscriptionsPage() {
  const { t, language } = useTrans();
  const [query, setQuery] = useState<SubscriptionQuery>({ page: 1, orderBy: 'created_at', orderDir: 'desc' });
  const subscriptions = useAdminSubscriptions(query);
  const plans = usePlans();
  const cancel = useCancelSubscription();
  const [cancelling, setCancelling] = useState<{ id: number; email: string; atPeriodEnd: boolean } | null>(null);
  const filter = (change: Partial<SubscriptionQuery>) => setQuery((q) => ({ ...q, ...change, page: 1 }));
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-semibold">{t('Subscriptions')}</h1>
        <input
          type="search"
          aria-label={t('Search subscriptions')}
          placeholder={t('Search subscriptions')}
          className={`${inputClass} max-w-xs`}
          onChange={(e) => filter({ query: e.target.value || undefined })}
        />
        <select aria-label={t('Status')} className={`${selectClass} max-w-40`} onChange={(e) => filter({ status: e.target.value || undefined })}>
          <option value="">{t('Any status')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select
          aria-label={t('Plan')}
          className={`${selectClass} max-w-40`}
          onChange={(e) => filter({ productId: e.target.value ? Number(e.target.value) : undefined })}
        >
          <option value="">{t('Any plan')}</option>
          {(plans.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <AdminTable
        label={t('Subscriptions')}
        rows={subscriptions.data?.data}
        isLoading={subscriptions.isLoading}
        emptyText="No subscriptions"
        sort={{ orderBy: query.orderBy, orderDir: query.orderDir }}
        onSort={(orderBy, orderDir) => setQuery((q) => ({ ...q, page: 1, orderBy: orderBy as Sort, orderDir }))}
        page={subscriptions.data}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
        columns={[
          { key: 'user', label: 'User', render: (s) => s.user_email },
          {
            key: 'plan',
            label: 'Plan',
            render: (s) => `${s.product_name} · ${formatAmount(s.price.amount / 100, s.price.currency, language)} / ${t(s.price.interval)}`,
          },
          { key: 'status', label: 'Status', render: (s) => (s.valid ? s.status : <span className="text-fg-muted">{s.status}</span>) },
          { key: 'created_at', label: 'Created', sortable: true, render: (s) => formatDate(s.created_at) },
          { key: 'renews_at', label: 'Renews', sortable: true, render: (s) => formatDate(s.renews_at) },
          { key: 'ends_at', label: 'Ends', sortable: true, render: (s) => formatDate(s.ends_at) },
        ]}
        actions={(s) =>
          s.valid ? (
            <>
              {s.ends_at === null && (
                <button
                  type="button"
                  className="text-primary hover:underline"
                  onClick={() => setCancelling({ id: s.id, email: s.user_email, atPeriodEnd: true })}
                >
                  {t('Cancel at period end')}
                </button>
              )}
              <button
                type="button"
                className="text-danger hover:underline"
                onClick={() => setCancelling({ id: s.id, email: s.user_email, atPeriodEnd: false })}
              >
                {t('Cancel now')}
              </button>
            </>
          ) : null
        }
      />
      {cancelling && (
        <ConfirmDialog
          title={t('Cancel subscription')}
          body={
            cancelling.atPeriodEnd
              ? t('Cancel the subscription of :email at the end of its paid period?', { email: cancelling.email })
              : t('Cancel the subscription of :email now? Their plan ends at once.', { email: cancelling.email })
          }
          confirmLabel={t('Cancel subscription')}
          isPending={cancel.isPending}
          onClose={() => setCancelling(null)}
          onConfirm={() =>
            cancel.mutate(
              { id: cancelling.id, atPeriodEnd: cancelling.atPeriodEnd },
              {
                onSuccess: () => toast(t('Cancelled subscription')),
                onError: (e) => toast.danger(getErrorMessage(e)),
                onSettled: () => setCancelling(null),
              },
            )
          }
        />
      )}
    </section>
  );
}
