import { useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { primaryButtonClass } from '../../../ui/form/field-classes';
import { toast } from '../../../ui/toast/toast-store';
import { formatAmount } from '../../pricing/plans';
import { AdminTable } from '../AdminTable';
import { usePlans, useSavePlan, type AdminPlan } from '../api';
import { formatBytes } from '../Pager';
import { PlanDialog } from './PlanDialog';

/** The plans on the pricing page (and hidden ones), with quick hide and recommend switches. */
export function PlansPage() {
  const { t, language } = useTrans();
  const plans = usePlans();
  const [editing, setEditing] = useState<AdminPlan | 'new' | null>(null);
  return (
    <section>
      <div className="mb-4 flex items-center">
        <h1 className="mr-auto text-xl font-semibold">{t('Plans')}</h1>
        <button type="button" className={primaryButtonClass} onClick={() => setEditing('new')}>
          {t('Add plan')}
        </button>
      </div>
      <AdminTable
        label={t('Plans')}
        rows={plans.data}
        isLoading={plans.isLoading}
        emptyText="No plans yet"
        columns={[
          {
            key: 'name',
            label: 'Name',
            render: (plan) => (
              <>
                {plan.name}
                {plan.hidden && <span className="ml-2 rounded bg-fg/10 px-1 text-xs">{t('Hidden')}</span>}
                {plan.recommended && <span className="ml-2 rounded bg-primary/10 px-1 text-xs text-primary">{t('Recommended')}</span>}
                {plan.free && <span className="ml-2 rounded bg-fg/10 px-1 text-xs">{t('Free')}</span>}
              </>
            ),
          },
          { key: 'space', label: 'Storage space', render: (plan) => formatBytes(plan.available_space) },
          {
            key: 'prices',
            label: 'Prices',
            render: (plan) =>
              plan.prices
                .map((p) => `${formatAmount(p.amount / 100, p.currency, language)} / ${p.interval_count > 1 ? `${p.interval_count} ` : ''}${t(p.interval)}`)
                .join(', '),
          },
          { key: 'subscribers', label: 'Subscribers', render: (plan) => plan.subscribers },
        ]}
        actions={(plan) => (
          <>
            <button type="button" className="text-primary hover:underline" onClick={() => setEditing(plan)}>
              {t('Edit')}
            </button>
            <QuickSwitch plan={plan} field="hidden" on={t('Show')} off={t('Hide')} />
            <QuickSwitch plan={plan} field="recommended" on={t('Unrecommend')} off={t('Recommend')} />
          </>
        )}
      />
      {editing && <PlanDialog plan={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** Flips one flag of a plan, keeping the rest as saved. */
function QuickSwitch({ plan, field, on, off }: { plan: AdminPlan; field: 'hidden' | 'recommended'; on: string; off: string }) {
  const { t } = useTrans();
  const save = useSavePlan(plan.id);
  const { name, description, feature_list, available_space, trash_days, hidden, recommended, free } = plan;
  return (
    <button
      type="button"
      className="text-primary hover:underline"
      disabled={save.isPending}
      onClick={() =>
        save.mutate(
          { name, description: description || null, feature_list, available_space, trash_days, hidden, recommended, free, [field]: !plan[field] },
          {
            onSuccess: (answer) => (answer.message ? toast.danger(answer.message) : toast(t('Updated plan'))),
            onError: (e) => toast.danger(getErrorMessage(e)),
          },
        )
      }
    >
      {plan[field] ? on : off}
    </button>
  );
}
