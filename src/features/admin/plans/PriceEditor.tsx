import { useState } from 'react';
import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { inputClass, selectClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { toast } from '../../../ui/toast/toast-store';
import { formatAmount } from '../../pricing/plans';
import { useAddPrice, useDeletePrice, type AdminPlan, type PriceBody } from '../api';

const INTERVALS = ['day', 'week', 'month', 'year'] as const;
type Interval = (typeof INTERVALS)[number];

/** "9.99" → 999 minor units; what is not a number goes as NaN (null on the wire) and the server names the field. */
export function toMinor(text: string): number {
  const amount = Number(text.replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN;
}

type Props =
  | { plan: AdminPlan; pending?: never; onPendingChange?: never; errors?: never }
  | { plan?: never; pending: PriceBody[]; onPendingChange: (prices: PriceBody[]) => void; errors: (index: number, field: string) => string | undefined };

/**
 * A plan's prices. For a saved plan each add and remove is its own call
 * (made in Stripe at once); for a new plan they are kept here and go with
 * the plan. Amounts are typed in major units (9.99) and sent in minor units.
 */
export function PriceEditor(props: Props) {
  const { t, language } = useTrans();
  const planId = props.plan?.id ?? 0;
  const add = useAddPrice(planId);
  const remove = useDeletePrice(planId);
  const [removing, setRemoving] = useState<number | null>(null);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [interval, setInterval] = useState<Interval>('month');
  const [count, setCount] = useState('1');
  const fieldError = (field: string) => getFieldError(add.error, field);

  const rows = props.plan
    ? props.plan.prices.map((p) => ({
        key: p.id,
        amount: p.amount,
        currency: p.currency,
        interval: p.interval,
        count: p.interval_count,
        subscribers: p.subscribers,
      }))
    : props.pending.map((p, i) => ({ key: i, amount: p.amount, currency: p.currency, interval: p.interval, count: p.interval_count ?? 1, subscribers: 0 }));

  const handleAdd = () => {
    const body: PriceBody = { amount: toMinor(amount), currency: currency.trim().toUpperCase(), interval, interval_count: Number(count) };
    if (!props.plan) {
      props.onPendingChange([...props.pending, body]);
      setAmount('');
      return;
    }
    add.mutate(body, {
      onSuccess: (answer) => {
        if (answer.message) toast.danger(answer.message);
        setAmount('');
      },
      onError: (e) => {
        if (!['amount', 'currency', 'interval', 'interval_count'].some((f) => getFieldError(e, f))) toast.danger(getErrorMessage(e));
      },
    });
  };

  const pendingError = (index: number) =>
    props.errors ? ['amount', 'currency', 'interval', 'interval_count'].map((f) => props.errors(index, f)).find(Boolean) : undefined;

  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">{t('Prices')}</legend>
      <ul className="mb-2 flex flex-col gap-1 text-sm">
        {rows.length === 0 && <li className="text-fg-muted">{t('No prices yet')}</li>}
        {rows.map((row, index) => {
          const error = props.plan ? undefined : pendingError(index);
          return (
            <li key={row.key}>
              <span className="flex items-center gap-2">
                <span className="mr-auto">
                  {Number.isFinite(row.amount) ? formatAmount(row.amount / 100, row.currency, language) : '—'} / {row.count > 1 ? `${row.count} ` : ''}
                  {t(row.interval)}
                  {row.subscribers > 0 && <span className="ml-2 text-fg-muted">{t(':count subscriptions', { count: row.subscribers })}</span>}
                </span>
                <button
                  type="button"
                  className="text-danger hover:underline disabled:opacity-50"
                  disabled={row.subscribers > 0}
                  title={row.subscribers > 0 ? t('This price has subscriptions. Hide the plan instead, or move its subscribers first.') : undefined}
                  onClick={() => (props.plan ? setRemoving(row.key) : props.onPendingChange(props.pending.filter((_, i) => i !== index)))}
                >
                  {t('Remove')}
                </button>
              </span>
              {error && <p className="text-danger">{error}</p>}
            </li>
          );
        })}
      </ul>
      <div className="grid grid-cols-2 items-end gap-2 text-sm sm:grid-cols-5">
        <label className="flex flex-col">
          {t('Amount')}
          <input
            className={inputClass}
            inputMode="decimal"
            placeholder="9.99"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={fieldError('amount') ? true : undefined}
          />
        </label>
        <label className="flex flex-col">
          {t('Currency')}
          <input
            className={inputClass}
            maxLength={3}
            value={currency}
            onChange={(e) => setCurrency(e.target.value)}
            aria-invalid={fieldError('currency') ? true : undefined}
          />
        </label>
        <label className="flex flex-col">
          {t('Every')}
          <input
            className={inputClass}
            inputMode="numeric"
            value={count}
            onChange={(e) => setCount(e.target.value)}
            aria-invalid={fieldError('interval_count') ? true : undefined}
          />
        </label>
        <label className="flex flex-col">
          {t('Interval')}
          <select className={selectClass} value={interval} onChange={(e) => setInterval(e.target.value as Interval)}>
            {INTERVALS.map((i) => (
              <option key={i} value={i}>
                {t(i)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={secondaryButtonClass} disabled={add.isPending} onClick={handleAdd}>
          {t('Add price')}
        </button>
      </div>
      {['amount', 'currency', 'interval_count', 'interval'].map((f) => {
        const error = fieldError(f);
        return error ? (
          <p key={f} className="mt-1 text-sm text-danger">
            {error}
          </p>
        ) : null;
      })}
      {removing !== null && (
        <ConfirmDialog
          title={t('Remove price')}
          body={t('Remove this price? It is no longer sold, at Stripe too.')}
          confirmLabel={t('Remove')}
          isPending={remove.isPending}
          onClose={() => setRemoving(null)}
          onConfirm={() =>
            remove.mutate(removing, {
              onSuccess: (answer) => {
                if (answer.message) toast.danger(answer.message);
              },
              onError: (e) => toast.danger(getErrorMessage(e)),
              onSettled: () => setRemoving(null),
            })
          }
        />
      )}
    </fieldset>
  );
}
