import { useState } from 'react';
import type { FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage, getFieldError } from '../api/errors';
import { useTrans } from '../i18n/use-trans';
import { ModalDialog } from './Dialog';
import { primaryButtonClass, secondaryButtonClass } from './form/field-classes';
import { TextField } from './form/TextField';

/** One name field: new folder and rename. Server field errors land on the field (spec §8). */
export function NameDialog({
  title,
  submitLabel,
  initialName,
  isPending,
  validate,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initialName: string;
  isPending: boolean;
  /** A rule beyond "required" (its translated message), checked before the call. */
  validate?: (name: string) => string | undefined;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTrans();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>();
  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError(t('This field is required'));
    const invalid = validate?.(trimmed);
    if (invalid) return setError(invalid);
    try {
      await onSubmit(trimmed);
      onClose();
    } catch (failure) {
      setError(getFieldError(failure, 'name') ?? getErrorMessage(failure));
    }
  };
  return (
    <ModalDialog title={title} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={(event) => void handleSubmit(event)} className="space-y-4">
        <TextField
          label={t('Name')}
          value={name}
          autoFocus
          onFocus={(event) => {
            const dot = event.target.value.lastIndexOf('.');
            event.target.setSelectionRange(0, dot > 0 ? dot : event.target.value.length);
          }}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
        <div className="flex justify-end gap-2">
          <Button onPress={onClose} className={secondaryButtonClass}>
            {t('Cancel')}
          </Button>
          <Button type="submit" isDisabled={isPending} className={primaryButtonClass}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
