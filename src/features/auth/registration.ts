import { z } from '../../ui/zod';
import type { RegisterFixedBody } from '../../api/api-types';
import type { Policy } from '../../api/bootstrap-types';
import type { TranslateFn } from '../../i18n/use-trans';

// Spec §3 "Registration payload" and §5 "Registration": the fixed fields plus
// one boolean per policy id, every policy required.

export const PASSWORD_MIN = 8;

/** The form keeps policies under `policies.<id>` so ids never clash with fields. */
export const POLICY_FIELD_PREFIX = 'policies.';

export type RegisterPayload = RegisterFixedBody;

export function registerSchema(policies: readonly Policy[], t: TranslateFn) {
  const required = t('This field is required');
  const text = z.string().trim();
  const acceptances = Object.fromEntries(
    policies.map((policy) => [policy.id, z.boolean().refine((accepted) => accepted, t('You must accept the :name.', { name: t(policy.label) }))]),
  );
  return z
    .object({
      first_name: text.min(1, required),
      last_name: text.min(1, required),
      email: text.min(1, required).pipe(z.email(t('Not a valid email'))),
      password: z.string().min(PASSWORD_MIN, t('Must be at least :min characters', { min: PASSWORD_MIN })),
      password_confirmation: z.string().min(1, required),
      address: text,
      city: text,
      country: text,
      zipcode: text,
      policies: z.object(acceptances),
    })
    .refine((values) => values.password === values.password_confirmation, {
      path: ['password_confirmation'],
      message: t('The password confirmation does not match.'),
    });
}

export type RegisterFormValues = z.input<ReturnType<typeof registerSchema>>;

export function emptyRegisterForm(policies: readonly Policy[], preset: Partial<Record<'email' | 'first_name' | 'last_name', string>> = {}): RegisterFormValues {
  return {
    first_name: preset.first_name ?? '',
    last_name: preset.last_name ?? '',
    email: preset.email ?? '',
    password: '',
    password_confirmation: '',
    address: '',
    city: '',
    country: '',
    zipcode: '',
    policies: Object.fromEntries(policies.map((p) => [p.id, false])),
  };
}

export function buildRegisterPayload(values: RegisterFormValues, policies: readonly Policy[]): RegisterPayload {
  const optional = (value: string) => value.trim() || null;
  const payload: RegisterPayload = {
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    email: values.email.trim(),
    password: values.password,
    password_confirmation: values.password_confirmation,
    address: optional(values.address),
    city: optional(values.city),
    country: optional(values.country),
    zipcode: optional(values.zipcode),
  };
  for (const policy of policies) payload[policy.id] = values.policies[policy.id] === true;
  return payload;
}

/** Server errors for a policy come keyed by its id; the form field is `policies.<id>`. */
export function registerFieldFor(policies: readonly Policy[]): (field: string) => string {
  const ids = new Set(policies.map((p) => p.id));
  return (field) => (ids.has(field) ? `${POLICY_FIELD_PREFIX}${field}` : field);
}
