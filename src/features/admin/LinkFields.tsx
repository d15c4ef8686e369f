import { useTrans } from '../../i18n/use-trans';
import { secondaryButtonClass, selectClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';

export interface LinkValue {
  label: string;
  action: string;
  type: 'route' | 'link';
}
export interface PolicyValue extends LinkValue {
  id: string;
}

/** A link setting as three fields: its text, where it goes, and whether that is a page of the app or another site. */
export function LinkFields({
  legend,
  value,
  onChange,
  errorFor,
}: {
  legend: string;
  value: LinkValue;
  onChange: (value: LinkValue) => void;
  /** The server's error for one of the link's fields, if any. */
  errorFor: (field: keyof PolicyValue) => string | undefined;
}) {
  const { t } = useTrans();
  return (
    <fieldset className="rounded border border-divider p-3">
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        <TextField label={t('Link text')} value={value.label} onChange={(e) => onChange({ ...value, label: e.target.value })} error={errorFor('label')} />
        <TextField label={t('Address')} value={value.action} onChange={(e) => onChange({ ...value, action: e.target.value })} error={errorFor('action')} />
        <label className="text-sm font-medium">
          {t('Opens')}
          <select
            className={`${selectClass} mt-1`}
            value={value.type}
            onChange={(e) => onChange({ ...value, type: e.target.value === 'link' ? 'link' : 'route' })}
          >
            <option value="route">{t('A page of this site')}</option>
            <option value="link">{t('Another site')}</option>
          </select>
        </label>
      </div>
    </fieldset>
  );
}

/** The registration policies: links a person agrees to when registering, added and removed as rows. */
export function PolicyList({
  legend,
  value,
  onChange,
  errorFor,
}: {
  legend: string;
  value: PolicyValue[];
  onChange: (value: PolicyValue[]) => void;
  errorFor: (index: number, field: keyof PolicyValue) => string | undefined;
}) {
  const { t } = useTrans();
  const update = (index: number, next: PolicyValue) => onChange(value.map((p, i) => (i === index ? next : p)));
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="flex flex-col gap-2">
        {value.length === 0 && <p className="text-sm text-fg-muted">{t('None')}</p>}
        {value.map((policy, index) => (
          <div key={index} className="flex items-start gap-2">
            <div className="flex-1">
              <LinkFields
                legend={t('Policy :index', { index: index + 1 })}
                value={policy}
                onChange={(next) => update(index, { ...policy, ...next })}
                errorFor={(field) => errorFor(index, field)}
              />
            </div>
            <button type="button" className={`${secondaryButtonClass} mt-4`} onClick={() => onChange(value.filter((_, i) => i !== index))}>
              {t('Remove')}
            </button>
          </div>
        ))}
      </div>
      <button
        type="button"
        className={`${secondaryButtonClass} mt-2`}
        // A stable id the registration form keys its checkbox by; not shown.
        onClick={() => onChange([...value, { id: `policy-${Date.now().toString(36)}`, label: '', action: '', type: 'route' }])}
      >
        {t('Add policy')}
      </button>
    </fieldset>
  );
}
