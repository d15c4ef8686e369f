import { Radio, RadioGroup, Label } from 'react-aria-components';
import { useTrans } from '../../i18n/use-trans';
import { useHydrated } from '../../ui/use-hydrated';
import { yearlySaving, type BillingCycle, type Product } from './plans';

/** Monthly or yearly; yearly shows the best saving among the plans. */
export function BillingCycleToggle({
  value,
  onChange,
  products,
}: {
  value: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
  products: readonly Product[];
}) {
  const { t } = useTrans();
  // The page is written by the server: a choice made before React runs would change the radio but not the prices.
  const hydrated = useHydrated();
  const saving = Math.max(0, ...products.map((product) => yearlySaving(product.prices) ?? 0));
  const option =
    'cursor-pointer rounded-full px-4 py-1.5 text-sm font-semibold outline-none data-[focus-visible]:ring-2 data-[focus-visible]:ring-primary data-[selected]:bg-primary data-[selected]:text-on-primary';
  return (
    <RadioGroup
      value={value}
      onChange={(next) => onChange(next as BillingCycle)}
      isDisabled={!hydrated}
      orientation="horizontal"
      className="flex flex-col items-center gap-2"
    >
      <Label className="sr-only">{t('Billing cycle')}</Label>
      <div className="flex rounded-full border border-divider p-1">
        <Radio value="monthly" className={option}>
          {t('Monthly')}
        </Radio>
        <Radio value="yearly" className={option}>
          {t('Yearly')}
          {saving > 0 && <span className="ml-2 text-xs font-normal">{t('Save :percent%', { percent: saving })}</span>}
        </Radio>
      </div>
    </RadioGroup>
  );
}
