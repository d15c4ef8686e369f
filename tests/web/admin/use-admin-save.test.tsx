import { useMutation } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/api-error';
import { useAdminSave, type AdminSaveOptions } from '../../../src/features/admin/use-admin-save';
import { toastStore } from '../../../src/ui/toast/toast-store';
import { renderAdmin } from './render-admin';

interface Body {
  name: string;
  current_password?: string;
}
type Answer = { id: number; message?: string };

const invalid = (errors: Record<string, string[]>) => new ApiError('badResponse', 422, { message: Object.values(errors)[0]![0], errors });

/** One form on the hook, its calls answered by `answer`. */
function renderSave(answer: (body: Body) => Answer | ApiError, options: Omit<AdminSaveOptions<Body, Answer>, 'done'>) {
  const sent: Body[] = [];
  function Form() {
    const mutation = useMutation({
      mutationFn: async (body: Body) => {
        sent.push(body);
        const result = answer(body);
        if (result instanceof ApiError) throw result;
        return result;
      },
    });
    const save = useAdminSave(mutation, { done: 'Saved it', ...options });
    return (
      <>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.submit({ name: 'Ann' });
          }}
        >
          <p data-testid="name-error">{save.error('name') ?? ''}</p>
          <button type="submit" disabled={save.isPending}>
            Save
          </button>
        </form>
        {save.dialog}
      </>
    );
  }
  // Under a signed-in admin (the password dialog speaks the user's language); the form calls no server.
  renderAdmin(<Form />, () => undefined);
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  return sent;
}

const lastToast = () => toastStore.getToasts().at(-1);

describe('useAdminSave: the save of every admin form', () => {
  afterEach(() => toastStore.clear());

  it('toasts the confirmation and hands the answer on', async () => {
    const onSaved = vi.fn();
    const sent = renderSave(() => ({ id: 7 }), { onSaved });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ id: 7 }));
    expect(sent).toEqual([{ name: 'Ann' }]);
    expect(lastToast()).toMatchObject({ message: 'Saved it' });
    expect(lastToast()?.type).not.toBe('danger');
  });

  it('shows a warning the answer carries instead of the confirmation', async () => {
    const onSaved = vi.fn();
    renderSave(() => ({ id: 7, message: 'Saved, but Stripe did not answer.' }), { onSaved, warning: (answer) => answer.message });
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(lastToast()).toMatchObject({ message: 'Saved, but Stripe did not answer.', type: 'danger' });
  });

  it('leaves an error on a listed field to the field, and toasts any other', async () => {
    renderSave(() => invalid({ name: ['The name has already been taken.'] }), { fields: ['name'] });
    await waitFor(() => expect(screen.getByTestId('name-error').textContent).toBe('The name has already been taken.'));
    expect(lastToast()?.message).not.toBe('The name has already been taken.');
  });

  it('toasts a field error the form does not show beside a field', async () => {
    renderSave(() => invalid({ colour: ['Not a colour.'] }), { fields: ['name'] });
    await waitFor(() => expect(lastToast()).toMatchObject({ message: 'Not a colour.', type: 'danger' }));
  });

  it('asks the admin’s password when the server wants it, and sends the call again with it', async () => {
    const onSaved = vi.fn();
    const sent = renderSave((body) => (body.current_password === 'right' ? { id: 1 } : invalid({ current_password: ['Enter your current password.'] })), {
      onSaved,
      withPassword: (body, currentPassword) => ({ ...body, current_password: currentPassword }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Password required' });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'right' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ id: 1 }));
    expect(sent).toEqual([{ name: 'Ann' }, { name: 'Ann', current_password: 'right' }]);
    expect(lastToast()?.message).toBe('Saved it');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Password required' })).toBeNull());
  });

  it('without withPassword a password request is an error like any other', async () => {
    renderSave(() => invalid({ current_password: ['Enter your current password.'] }), {});
    await waitFor(() => expect(lastToast()).toMatchObject({ message: 'Enter your current password.', type: 'danger' }));
    expect(screen.queryByRole('dialog', { name: 'Password required' })).toBeNull();
  });
});
