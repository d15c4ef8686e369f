import { useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage } from '../../api/errors';
import { formatBytes } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { BillingCycleToggle } from '../pricing/BillingCycleToggle';
import { DEFAULT_CYCLE, formatAmount, listedPlans, pickPrice, type BillingCycle, type Price, type Product } from '../pricing/plans';
import { useChangePlan, useProducts, type SubscriptionState } from './api';

type Current = NonNullable<SubscriptionState['subscription']>;

/** Pick another paid plan or cycle, then confirm: Stripe prorates the difference. */
export function ChangePlanDialog({ current, onClose, onChanged }: { current: Current; onClose: () => void; onChanged: (priceId: number) => void }) {
  const { t, language } = useTrans();
  const products = useProducts();
  const change = useChangePlan();
  const [cycle, setCycle] = useState<BillingCycle>(DEFAULT_CYCLE);
  const [chosen, setChosen] = useState<{ product: Product; price: Price } | null>(null);
  const paid = listedPlans(products.data ?? []).filter((product) => !product.free);
  const priceText = (price: Price) => `${formatAmount(price.amount, price.currency, language)} ${t(price.interval === 'year' ? '/ year' : '/ month')}`;

  return (
    <ModalDialog title={t('Change plan')} isOpen onOpenChange={(open) => !open && onClose()}>
      {chosen ? (
        <>
          <p className="mb-4 text-sm">
            {t('Switch to :plan (:price)? Stripe charges or credits the difference for the rest of this period.', {
              plan: t(chosen.product.name),
              price: priceText(chosen.price),
            })}
          </p>
          <div className="flex justify-end gap-2">
            <Button className={secondaryButtonClass} onPress={() => setChosen(null)}>
              {t('Back')}
            </Button>
            <Button
              className={primaryButtonClass}
              isDisabled={change.isPending}
              onPress={() =>
                change.mutate(
                  { productId: chosen.product.id, priceId: chosen.price.id },
                  {
                    onSuccess: ({ message }) => {
                      toast.positive(message);
                      onChanged(chosen.price.id);
                    },
                    onError: (e) => toast.danger(getErrorMessage(e)),
                  },
                )
              }
            >
              {t('Confirm')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <div className="mb-4 flex justify-center">
            <BillingCycleToggle value={cycle} onChange={setCycle} products={paid} />
          </div>
          <ul className="space-y-2">
            {paid.map((product) => {
              const price = pickPrice(product.prices, cycle);
              if (!price) return null;
              const isCurrent = current.price?.id === price.id;
              return (
                <li key={product.id} className="flex items-center justify-between gap-3 rounded-lg border border-divider p-3">
                  <div>
                    <p className="font-semibold">{t(product.name)}</p>
                    <p className="text-sm text-fg-muted">
                      {priceText(price)} ·{' '}
                      {product.available_space === null ? t('Unlimited storage') : t(':space of storage', { space: formatBytes(product.available_space) })}
                    </p>
                  </div>
                  {isCurrent ? (
                    <span className="text-sm text-fg-muted">{t('Current plan')}</span>
                  ) : (
                    <Button aria-label={`${t('Choose')} ${t(product.name)}`} className={secondaryButtonClass} onPress={() => setChosen({ product, price })}>
                      {t('Choose')}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          <div className="mt-4 flex justify-end">
            <Button className={secondaryButtonClass} onPress={onClose}>
              {t('Close')}
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
