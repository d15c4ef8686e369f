import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { getErrorMessage } from '../../api/errors';
import { toast } from '../../ui/toast/toast-store';
import { updateBootstrap } from '../bootstrap/store';

/** Spec §4 "Language change": post the locale, then take its lines as bootstrap i18n. */
export function useChangeLocale() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (locale: string) => api.post('users/me/locale', { locale }),
    onSuccess: ({ locale }) => {
      updateBootstrap(client, (current) => ({
        ...current,
        i18n: { language: locale.language, lines: locale.lines },
        user: current.user ? { ...current.user, language: locale.language } : null,
      }));
    },
    onError: (error) => toast.danger(getErrorMessage(error)),
  });
}
