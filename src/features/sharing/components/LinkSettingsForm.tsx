import { useId, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import type { ShareLink } from '../api/links';
import { bodyFromForm, formFromLink, isProblem, type FormProblem, type LinkForm, type LinkSettingsBody } from '../lib/link-settings';

/** A link's controls: download on/off, file drop (folders), password, expiry, download limit. */
export function LinkSettingsForm({
  link,
  isFolder,
  pending,
  serverError,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  link: ShareLink | null;
  isFolder: boolean;
  pending: boolean;
  serverError?: string;
  submitLabel: string;
  onSubmit: (body: LinkSettingsBody) => void;
  onCancel?: () => void;
}) {
  const { t } = useTrans();
  const id = useId();
  const [form, setForm] = useState<LinkForm>(() => formFromLink(link));
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const set = <K extends keyof LinkForm>(key: K, value: LinkForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const submit = () => {
    const body = bodyFromForm(form, link);
    if (isProblem(body)) return setProblem(body);
    setProblem(null);
    onSubmit(body);
  };
  const error = (field: FormProblem['field']) =>
    problem?.field === field ? (
      <p role="alert" className="text-sm text-danger">
        {t(problem.message)}
      </p>
    ) : null;
  const check = (key: 'allowDownload' | 'fileDrop' | 'notifyOwner' | 'usePassword' | 'useExpiry' | 'useLimit', label: string, disabled = false) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={form[key]} disabled={disabled || pending} onChange={(event) => set(key, event.target.checked)} />
      {t(label)}
    </label>
  );

  return (
    <form
      className="space-y-3 rounded border border-divider p-3"
      aria-label={t('Link settings')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {isFolder && check('fileDrop', 'File drop: people can upload but not see the files')}
      {!form.fileDrop && check('allowDownload', 'Allow download')}
      {check('notifyOwner', form.fileDrop ? 'Notify me of every file dropped' : 'Notify me of the first download')}
      <div className="space-y-1">
        {check('usePassword', 'Protect with a password')}
        {form.usePassword && (
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            aria-label={t('Link password')}
            placeholder={link?.has_password ? t('Leave empty to keep the current password') : ''}
            className={inputClass}
            value={form.password}
            onChange={(event) => set('password', event.target.value)}
          />
        )}
        {error('password')}
      </div>
      <div className="space-y-1">
        {check('useExpiry', 'Expires')}
        {form.useExpiry && (
          <input
            type="datetime-local"
            aria-label={t('Expiry date')}
            className={inputClass}
            value={form.expiresAt}
            onChange={(event) => set('expiresAt', event.target.value)}
          />
        )}
        {error('expiresAt')}
      </div>
      {!form.fileDrop && (
        <div className="space-y-1">
          {check('useLimit', 'Limit downloads')}
          {form.useLimit && (
            <input
              type="number"
              min={1}
              aria-label={t('Download limit')}
              className={inputClass}
              value={form.maxDownloads}
              onChange={(event) => set('maxDownloads', event.target.value)}
            />
          )}
          {error('maxDownloads')}
        </div>
      )}
      {serverError && (
        <p role="alert" className="text-sm text-danger">
          {serverError}
        </p>
      )}
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button onPress={onCancel} className={secondaryButtonClass}>
            {t('Cancel')}
          </Button>
        )}
        <Button type="submit" isDisabled={pending} className={primaryButtonClass}>
          {t(submitLabel)}
        </Button>
      </div>
    </form>
  );
}
