import { useState } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { ModalDialog } from '../../../ui/Dialog';
import { CheckboxField } from '../../../ui/form/CheckboxField';
import { TextField } from '../../../ui/form/TextField';
import { useSavePlan, type AdminPlan, type PriceBody } from '../api';
import { useAdminSave } from '../use-admin-save';
import { ListEditor } from './ListEditor';
import { PriceEditor } from './PriceEditor';
import { FormButtons } from '../../../ui/form/FormButtons';

const GB = 1024 ** 3;

/** "10" GB → bytes; empty → null (unlimited); NaN for anything that is not a number. */
export function spaceFromGb(text: string): number | null {
  if (text.trim() === '') return null;
  const gb = Number(text);
  return Number.isFinite(gb) ? Math.round(gb * GB) : Number.NaN;
}

/** "14" days → 14; empty → null (the site's trash.keep_days); NaN for anything but a whole number of days. */
export function daysFromText(text: string): number | null {
  if (text.trim() === '') return null;
  const days = Number(text);
  return Number.isInteger(days) && days >= 1 ? days : Number.NaN;
}

/**
 * Creates or edits a plan: name, description, features, storage space, trash days,
 * hidden, recommended, free. A new plan's prices go with it; an existing
 * plan's prices are added and removed one by one (a sold price never changes).
 */
export function PlanDialog({ plan, onClose }: { plan: AdminPlan | null; onClose: () => void }) {
  const { t } = useTrans();
  const save = useAdminSave(useSavePlan(plan?.id ?? null), {
    done: plan ? t('Updated plan') : t('Created plan'),
    // Saved here but not at Stripe: the warning matters more than the confirmation.
    warning: (answer) => answer.message,
    onSaved: onClose,
  });
  const [name, setName] = useState(plan?.name ?? '');
  const [description, setDescription] = useState(plan?.description ?? '');
  const [features, setFeatures] = useState<string[]>(plan?.feature_list ?? []);
  const [space, setSpace] = useState(plan?.available_space === null || plan === null ? '' : String(plan.available_space / GB));
  const [trashDays, setTrashDays] = useState(plan?.trash_days == null ? '' : String(plan.trash_days));
  const [hidden, setHidden] = useState(plan?.hidden ?? false);
  const [recommended, setRecommended] = useState(plan?.recommended ?? false);
  const [free, setFree] = useState(plan?.free ?? false);
  const [prices, setPrices] = useState<PriceBody[]>([]);
  const error = save.error;

  const [spaceError, setSpaceError] = useState<string | undefined>();
  const [daysError, setDaysError] = useState<string | undefined>();

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const bytes = spaceFromGb(space);
    // NaN would travel as null, which means unlimited: catch it here.
    setSpaceError(Number.isNaN(bytes) ? t('Type a number of GB, or leave it empty for unlimited.') : undefined);
    const days = daysFromText(trashDays);
    setDaysError(Number.isNaN(days) ? t('Type a whole number of days, or leave it empty for the site setting.') : undefined);
    if (Number.isNaN(bytes) || Number.isNaN(days)) return;
    const fields = {
      name,
      description: description || null,
      feature_list: features.map((f) => f.trim()).filter(Boolean),
      available_space: bytes,
      trash_days: days,
      hidden,
      recommended,
      free,
    };
    save.submit(plan ? fields : { ...fields, prices });
  };

  return (
    <ModalDialog title={plan ? t('Edit plan') : t('Add plan')} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={handleSubmit} noValidate className="flex max-h-[75vh] flex-col gap-3 overflow-y-auto">
        <TextField label={t('Name')} required value={name} onChange={(e) => setName(e.target.value)} error={error('name')} />
        <TextField label={t('Description')} value={description} onChange={(e) => setDescription(e.target.value)} error={error('description')} />
        <ListEditor
          label={t('Features')}
          itemLabel="Feature :index"
          addLabel={t('Add feature')}
          values={features}
          onChange={setFeatures}
          errors={(index) => error(`feature_list.${index}`)}
        />
        <TextField
          label={t('Storage space (GB)')}
          inputMode="decimal"
          value={space}
          onChange={(e) => setSpace(e.target.value)}
          description={t('Empty: unlimited')}
          error={spaceError ?? error('available_space')}
        />
        <TextField
          label={t('Trash kept for (days)')}
          inputMode="numeric"
          value={trashDays}
          onChange={(e) => setTrashDays(e.target.value)}
          description={t('Empty: the site setting')}
          error={daysError ?? error('trash_days')}
        />
        <div className="flex flex-wrap gap-4 text-sm">
          <CheckboxField label={t('Hidden from the pricing page')} checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
          <CheckboxField label={t('Recommended')} checked={recommended} onChange={(e) => setRecommended(e.target.checked)} />
          <CheckboxField label={t('Free plan')} checked={free} onChange={(e) => setFree(e.target.checked)} />
        </div>
        {plan ? (
          <PriceEditor plan={plan} />
        ) : (
          <PriceEditor pending={prices} onPendingChange={setPrices} errors={(index, field) => error(`prices.${index}.${field}`)} />
        )}
        <FormButtons onCancel={onClose} pending={save.isPending} />
      </form>
    </ModalDialog>
  );
}
