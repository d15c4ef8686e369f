import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getErrorMessage, getFieldError } from '../../api/errors';
import { toast } from '../../ui/toast/toast-store';
import { usePasswordProof, type RetryWithPassword } from './PasswordProof';

export interface AdminSaveOptions<TBody, TResult> {
  /** The toast once saved (the caller translates it). */
  done: string;
  /** A warning the answer carries (saved here, not at Stripe): shown instead of `done`. */
  warning?: (result: TResult) => string | null | undefined;
  /** After the toast: close the dialog, navigate, clear a draft. */
  onSaved?: (result: TResult) => void;
  /** Fields the form shows beside their input: an error on one of them is not toasted as well. */
  fields?: readonly string[];
  /**
   * The body again with the admin's own password, for the calls where the
   * server may ask for it (a `current_password` error opens the spec's
   * 'Password required' dialog, which sends the call once more).
   */
  withPassword?: (body: TBody, currentPassword: string) => TBody;
}

export interface AdminSave<TBody> {
  submit: (body: TBody) => void;
  /** The last answer's error on a field, to show beside it. */
  error: (field: string) => string | undefined;
  isPending: boolean;
  /** The password dialog: render it outside the form (React bubbles a portal's submit up the tree). */
  dialog: ReactNode;
}

/**
 * The save of every admin form: send, toast what happened, leave field errors
 * to their fields and toast anything else, and ask for the admin's password
 * when the server wants it.
 */
export function useAdminSave<TBody, TResult>(
  mutation: Pick<UseMutationResult<TResult, Error, TBody>, 'mutate' | 'error' | 'isPending'>,
  options: AdminSaveOptions<TBody, TResult>,
): AdminSave<TBody> {
  const proof = usePasswordProof();
  const saved = (result: TResult) => {
    const warning = options.warning?.(result);
    if (warning) toast.danger(warning);
    else toast(options.done);
    options.onSaved?.(result);
  };
  const failed = (error: unknown) => {
    if (!options.fields?.some((field) => getFieldError(error, field))) toast.danger(getErrorMessage(error));
  };
  const submit = (body: TBody) => {
    const { withPassword } = options;
    const retry: RetryWithPassword | null = withPassword
      ? (currentPassword, handlers) =>
          mutation.mutate(withPassword(body, currentPassword), {
            onSuccess: (result) => {
              handlers.onSuccess();
              saved(result);
            },
            onError: handlers.onError,
          })
      : null;
    mutation.mutate(body, {
      onSuccess: saved,
      onError: (error) => {
        if (retry && proof.ask(error, retry)) return;
        failed(error);
      },
    });
  };
  return { submit, error: (field) => getFieldError(mutation.error, field), isPending: mutation.isPending, dialog: proof.dialog };
}
