import { useId } from 'react';
import type { InputHTMLAttributes, Ref } from 'react';
import { translate } from '../../i18n/i18n';

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'type'> {
  label: string;
  /** Already a sentence: a schema message (translated when built) or the server's. */
  error?: string;
  description?: string;
  className?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A checkbox with its label beside it; the whole label toggles it. Text size
 * comes from the surrounding row, so a row of options stays one size.
 */
export function CheckboxField({ label, error, description, className = '', id, ref, ...input }: CheckboxFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const descriptionId = `${inputId}-description`;
  // The description gives way to an error, so only the one shown is referenced.
  const describedBy = error ? errorId : description ? descriptionId : undefined;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="inline-flex items-center gap-1">
        <input ref={ref} id={inputId} type="checkbox" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {label}
      </label>
      {description && !error && (
        <p id={descriptionId} className="mt-1 text-xs text-fg-muted">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-danger">
          {translate(error)}
        </p>
      )}
    </div>
  );
}
