import { useForm } from 'react-hook-form';
import type { AccountUser } from '../../api/api-types';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { SelectField } from '../../ui/form/SelectField';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { useValueLists } from '../value-lists/api';
import { ACCOUNT_VALUE_LISTS, useUpdateAccount } from './api';
import { UPDATED_ACCOUNT } from './ProfileSection';
import { reloadSoon } from './reload';
import { SettingsSection } from './SettingsSection';

interface PreferencesForm {
  language: string;
  country: string;
  timezone: string;
}

export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Spec §2 'Date, Time And Language': language, country and timezone (the browser's by default). */
export function PreferencesSection({ user }: { user: AccountUser }) {
  const { t } = useTrans();
  const data = useBootstrap();
  const lists = useValueLists(ACCOUNT_VALUE_LISTS).data;
  const localizations = lists?.localizations ?? data.localizations;
  const countries = lists?.countries ?? [];
  const timezones = Object.entries(lists?.timezones ?? {});
  const update = useUpdateAccount();
  const { register, handleSubmit, setError, formState } = useForm<PreferencesForm>({
    mode: 'onChange',
    defaultValues: {
      language: user.language ?? data.i18n.language,
      country: user.country ?? '',
      timezone: user.timezone || browserTimezone(),
    },
  });
  const { errors } = formState;

  const handleSave = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ language: values.language, country: values.country || null, timezone: values.timezone });
      toast.positive(UPDATED_ACCOUNT);
      reloadSoon();
    } catch (error) {
      if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
    }
  });

  // Each select remounts when its options arrive so the stored value is selected.
  return (
    <SettingsSection id="preferences" title={t('Date, Time And Language')}>
      <form onSubmit={handleSave} noValidate className="grid gap-4 sm:grid-cols-2">
        <SelectField
          key={`language-${localizations.length}`}
          label={t('Language')}
          error={errors.language?.message}
          {...register('language', { required: true })}
        >
          {localizations.map((l) => (
            <option key={l.id} value={l.language}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <SelectField key={`country-${countries.length}`} label={t('Country')} error={errors.country?.message} {...register('country')}>
          <option value="" />
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          key={`timezone-${timezones.length}`}
          label={t('Timezone')}
          className="sm:col-span-2"
          error={errors.timezone?.message}
          {...register('timezone', { required: true })}
        >
          {timezones.length === 0 && <option value={user.timezone || browserTimezone()}>{user.timezone || browserTimezone()}</option>}
          {timezones.map(([region, zones]) => (
            <optgroup key={region} label={region}>
              {zones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.text}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
        <div className="sm:col-span-2">
          <button type="submit" disabled={!formState.isValid || formState.isSubmitting} className={primaryButtonClass}>
            {t('Save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
