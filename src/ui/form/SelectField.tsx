import { useId } from 'react';
import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { translate } from '../../i18n/i18n';
import { selectClass } from './field-classes';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'> {
  label: string;
  error?: string;
  className?: string;
  children: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled native select: long lists (countries, timezones) stay fast and accessible. */
export function SelectField({ label, error, className = '', id, ref, children, ...select }: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  return (
    <div className={className}>
      <label htmlFor={selectId} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select
        ref={ref}
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={selectClass}
        {...select}
      >
        {children}
      </select>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-danger">
          {translate(error)}
        </p>
      )}
    </div>
  );
}
