import { useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, primaryButtonClass } from '../../../ui/form/field-classes';
import { useUnlockLink } from '../api/visitor';

/** A locked link asks for its password before it shows anything (names and sizes included). */
export function LinkPasswordForm({ token }: { token: string }) {
  const { t } = useTrans();
  const unlock = useUnlockLink(token);
  const [password, setPassword] = useState('');
  const error = unlock.error ? (getFieldError(unlock.error, 'password') ?? getErrorMessage(unlock.error)) : undefined;
  return (
    <form
      className="mx-auto max-w-sm space-y-3 py-12"
      onSubmit={(event) => {
        event.preventDefault();
        if (password) unlock.mutate(password);
      }}
    >
      <h1 className="text-xl font-semibold">{t('This link is protected by a password.')}</h1>
      <label className="block space-y-1 text-sm">
        <span>{t('Password')}</span>
        <input
          type="password"
          autoComplete="off"
          className={inputClass}
          value={password}
          aria-invalid={Boolean(error)}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <Button type="submit" isDisabled={!password || unlock.isPending} className={`${primaryButtonClass} w-full`}>
        {t('Open')}
      </Button>
    </form>
  );
}
