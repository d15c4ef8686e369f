import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { TranslateFn } from '../../i18n/use-trans';
import { z } from '../../ui/zod';
import { requiredEmail } from './email-field';

// Apart from LoginPage.tsx, which loads it on the form's first check: zod is not part of the page's first load.

const loginSchema = (t: TranslateFn) =>
  z.object({
    email: requiredEmail(t),
    password: z.string().min(1, t('This field is required')),
    remember: z.boolean(),
  });

export type LoginForm = z.infer<ReturnType<typeof loginSchema>>;

export function loginResolver(t: TranslateFn): Resolver<LoginForm> {
  return zodResolver(loginSchema(t));
}
