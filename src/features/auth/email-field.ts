import type { TranslateFn } from '../../i18n/use-trans';
import { z } from '../../ui/zod';

/** A required email address, trimmed, with the forms' two messages (sign-in, forgot password). */
export const requiredEmail = (t: TranslateFn) =>
  z
    .string()
    .trim()
    .min(1, t('This field is required'))
    .pipe(z.email(t('Not a valid email')));
