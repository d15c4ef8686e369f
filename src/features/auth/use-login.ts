import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import type { Bootstrap } from '../../api/bootstrap-types';
import { setBootstrap } from '../bootstrap/store';

export interface LoginPayload {
  email: string;
  password: string;
  remember: boolean;
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: LoginPayload) => api.post<{ bootstrapData: Bootstrap }>('auth/login', payload),
    onSuccess: ({ bootstrapData }) => setBootstrap(client, bootstrapData),
  });
}
