import { useId } from 'react';
import type { InputHTMLAttributes, Ref } from 'react';
import { translate } from '../../i18n/i18n';
import { inputClass } from './field-classes';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> {
  label: string;
  /** Already a sentence: a schema message (translated when built) or the server's. */
  error?: string;
  description?: string;
  className?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input wired for react-hook-form's `register()` spread. */
export function TextField({ label, error, description, className = '', id, ref, ...input }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const descriptionId = `${inputId}-description`;
  // The error takes the description's place on screen, so it takes it here too: never an id that is not rendered.
  const describedBy = error ? errorId : description ? descriptionId : undefined;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={inputClass} {...input} />
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
