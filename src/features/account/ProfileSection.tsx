import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from '../../ui/zod';
import type { AccountUser } from '../../api/api-types';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import type { TranslateFn } from '../../i18n/use-trans';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { SelectField } from '../../ui/form/SelectField';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useValueLists } from '../value-lists/api';
import { ACCOUNT_VALUE_LISTS, useUpdateAccount } from './api';
import { AvatarPicker } from './AvatarPicker';
import { reloadSoon } from './reload';
import { SettingsSection } from './SettingsSection';

export const UPDATED_ACCOUNT = 'Updated account details';

const profileSchema = (t: TranslateFn) => {
  const text = z.string().trim().max(255);
  const email = z.email(t('Not a valid email')).max(320);
  return z.object({
    first_name: text,
    last_name: text,
    email: z.string().trim().min(1, t('This field is required')).pipe(email),
    email2: z.union([z.literal(''), z.string().trim().pipe(email)]),
    company: text,
    designation: text,
    mobile: z
      .string()
      .trim()
      .max(32)
      .regex(/^\+?[0-9 ()./-]*$/, t('Enter a phone number, like +1 555 123 4567.')),
    address: text,
    city: text,
    country: z.string(),
    zipcode: z.string().trim().max(32),
    current_password: z.string(),
  });
};
type ProfileForm = z.infer<ReturnType<typeof profileSchema>>;

function toForm(user: AccountUser): ProfileForm {
  return {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    email: user.email,
    email2: user.email2 ?? '',
    company: user.company ?? '',
    designation: user.designation ?? '',
    mobile: user.mobile ?? '',
    address: user.address ?? '',
    city: user.city ?? '',
    country: user.country ?? '',
    zipcode: user.zipcode ?? '',
    current_password: '',
  };
}

/** Spec §2 'Update name and profile image' with the profile form of §3. */
export function ProfileSection({ user }: { user: AccountUser }) {
  const { t } = useTrans();
  const update = useUpdateAccount();
  const countries = useValueLists(ACCOUNT_VALUE_LISTS).data?.countries ?? [];
  const resolver = useMemo(() => zodResolver(profileSchema(t)), [t]);
  const { register, handleSubmit, setError, formState, control } = useForm<ProfileForm>({
    resolver,
    mode: 'onChange',
    defaultValues: toForm(user),
  });
  const { errors } = formState;
  // Changing the sign-in email asks for the current password (a stolen session must not move the account).
  const emailChanged = useWatch({ control, name: 'email' }).trim().toLowerCase() !== user.email.toLowerCase();

  const handleSave = handleSubmit(async (values) => {
    const empty = (value: string) => value || null;
    const { current_password, ...profile } = values;
    try {
      await update.mutateAsync({
        ...profile,
        ...(emailChanged ? { current_password } : {}),
        first_name: empty(values.first_name),
        last_name: empty(values.last_name),
        email2: empty(values.email2),
        company: empty(values.company),
        designation: empty(values.designation),
        mobile: empty(values.mobile),
        address: empty(values.address),
        city: empty(values.city),
        country: empty(values.country),
        zipcode: empty(values.zipcode),
      });
      toast.positive(UPDATED_ACCOUNT);
      reloadSoon();
    } catch (error) {
      if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
    }
  });

  return (
    <SettingsSection id="profile" title={t('Update name and profile image')}>
      <AvatarPicker user={user} />
      <form onSubmit={handleSave} noValidate className="mt-6 grid gap-4 sm:grid-cols-2">
        <TextField label={t('First name')} autoComplete="given-name" error={errors.first_name?.message} {...register('first_name')} />
        <TextField label={t('Last name')} autoComplete="family-name" error={errors.last_name?.message} {...register('last_name')} />
        <TextField label={t('Office email')} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        {emailChanged && (
          <TextField
            label={t('Current password')}
            type="password"
            autoComplete="current-password"
            description={t('Changing the sign-in email asks for your password.')}
            error={errors.current_password?.message}
            {...register('current_password')}
          />
        )}
        <TextField label={t('Personal email')} type="email" error={errors.email2?.message} {...register('email2')} />
        <TextField label={t('Company')} autoComplete="organization" error={errors.company?.message} {...register('company')} />
        <TextField label={t('Designation')} autoComplete="organization-title" error={errors.designation?.message} {...register('designation')} />
        <TextField label={t('Mobile')} type="tel" autoComplete="tel" placeholder="+1 555 123 4567" error={errors.mobile?.message} {...register('mobile')} />
        <TextField label={t('Address')} autoComplete="street-address" error={errors.address?.message} {...register('address')} />
        <TextField label={t('City')} autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
        <TextField label={t('Zip code')} autoComplete="postal-code" error={errors.zipcode?.message} {...register('zipcode')} />
        <SelectField
          // Remounts when the options arrive, so the stored country gets selected.
          key={countries.length}
          label={t('Country')}
          className="sm:col-span-2"
          error={errors.country?.message}
          {...register('country')}
        >
          <option value="" />
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
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
