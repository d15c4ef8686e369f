import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors';
import { toast } from '../../ui/toast/toast-store';
import { isAppearanceEditorActive } from '../appearance/bridge';
import { useLogoutMutation } from './api';

export const LOGOUT_IN_EDITOR_MESSAGE = "Can't logout while in appearance editor.";

/** Spec §4 "Logout": clear the cache, store the returned bootstrap, go to /login. */
export function useLogout() {
  const navigate = useNavigate();
  const mutation = useLogoutMutation();
  return {
    ...mutation,
    logout: () => {
      if (isAppearanceEditorActive()) {
        toast.danger(LOGOUT_IN_EDITOR_MESSAGE);
        return;
      }
      mutation.mutate(undefined, {
        onSuccess: () => void navigate('/login', { replace: true }),
        onError: (error) => toast.danger(getErrorMessage(error)),
      });
    },
  };
}
