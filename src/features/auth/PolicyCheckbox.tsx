import type { InputHTMLAttributes, Ref } from 'react';
import { Link } from 'react-router-dom';
import type { Policy } from '../../api/bootstrap-types';
import { sameSitePath } from '../../../common/same-site-path';
import { translate } from '../../i18n/i18n';
import { useTrans } from '../../i18n/use-trans';
import { linkClass } from '../../ui/form/field-classes';

const PLACEHOLDER = ':name';

/** 'I accept the :name', the name linking to the policy's page (spec §2 "Registration"). */
export function PolicyCheckbox({
  policy,
  error,
  ref,
  ...input
}: { policy: Policy; error?: string; ref?: Ref<HTMLInputElement> } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const { t } = useTrans();
  const id = `policy-${policy.id}`;
  // Without a value the placeholder stays in the sentence, so the link can take its place in any language.
  const [before = '', after = ''] = t('I accept the :name').split(PLACEHOLDER);
  const name = t(policy.label);
  // Routed only when the address is a path of this app as a browser reads it, whatever kind it was saved as.
  const path = sameSitePath(policy.action);
  const link =
    path === null ? (
      <a href={policy.action} target="_blank" rel="noopener noreferrer" className={linkClass}>
        {name}
      </a>
    ) : (
      <Link to={path} target="_blank" className={linkClass}>
        {name}
      </Link>
    );
  return (
    <div>
      <div className="flex items-center gap-2 text-sm">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="size-4 accent-[rgb(var(--be-primary))]"
          {...input}
        />
        <label htmlFor={id}>
          {before}
          {link}
          {after}
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-danger">
          {translate(error)}
        </p>
      )}
    </div>
  );
}
