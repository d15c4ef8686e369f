import { useTrans } from '../../../i18n/use-trans';
import { inputClass, secondaryButtonClass } from '../../../ui/form/field-classes';

/**
 * A short list of lines edited one input per line (a plan's features, a
 * setting's list). Blank lines are kept while typing; callers drop them on save.
 */
export function ListEditor({
  label,
  itemLabel,
  values,
  onChange,
  errors,
  addLabel,
}: {
  label: string;
  /** Names one input for assistive tech, with :index. */
  itemLabel: string;
  values: string[];
  onChange: (values: string[]) => void;
  /** Field errors by index (from the server's `field.0` keys). */
  errors?: (index: number) => string | undefined;
  addLabel: string;
}) {
  const { t } = useTrans();
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">{label}</legend>
      <ul className="flex flex-col gap-1">
        {values.map((value, index) => {
          const error = errors?.(index);
          return (
            <li key={index}>
              <span className="flex gap-1">
                <input
                  className={inputClass}
                  aria-label={t(itemLabel, { index: index + 1 })}
                  aria-invalid={error ? true : undefined}
                  value={value}
                  onChange={(e) => onChange(values.map((v, i) => (i === index ? e.target.value : v)))}
                />
                <button
                  type="button"
                  className={secondaryButtonClass}
                  aria-label={t('Remove :name', { name: t(itemLabel, { index: index + 1 }) })}
                  onClick={() => onChange(values.filter((_, i) => i !== index))}
                >
                  ×
                </button>
              </span>
              {error && <p className="mt-1 text-sm text-danger">{error}</p>}
            </li>
          );
        })}
      </ul>
      <button type="button" className={`${secondaryButtonClass} mt-1`} onClick={() => onChange([...values, ''])}>
        {addLabel}
      </button>
    </fieldset>
  );
}
