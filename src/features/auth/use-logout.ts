import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api/http';
import { getErrorMessage } from '../../api/errors';
import type { Bootstrap } from '../../api/bootstrap-types';
import { toast } from '../../ui/toast/toast-store';
import { isAppearanceEditorActive } from '../appearance/bridge';
import { setBootstrap } from '../bootstrap/store';

export const LOGOUT_IN_EDITOR_MESSAGE = "Can't logout while in appearance editor.";

/** Spec §4 "Logout": clear the cache, store the returned bootstrap, go to /login. */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => api.post<{ bootstrapData: Bootstrap }>('auth/logout'),
    onSuccess: ({ bootstrapData }) => {
      client.clear();
      setBootstrap(client, bootstrapData);
      void navigate('/login', { replace: true });
    },
    onError: (error) => toast.danger(getErrorMessage(error)),
  });
  return {
    ...mutation,
    logout: () => {
      if (isAppearanceEditorActive()) {
        toast.danger(LOGOUT_IN_EDITOR_MESSAGE);
        return;
      }
      mutation.mutate();
    },
  };
}
