import { Button } from 'react-aria-components';
import { useTrans } from '../i18n/use-trans';
import { ModalDialog } from './Dialog';
import { dangerButtonClass, secondaryButtonClass } from './form/field-classes';

export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  isPending,
  onConfirm,
  onClose,
}: {
  title: string;
  body: string;
  confirmLabel: string;
  isPending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTrans();
  return (
    <ModalDialog title={title} isOpen onOpenChange={(open) => !open && onClose()}>
      <p className="mb-4 text-sm">{body}</p>
      <div className="flex justify-end gap-2">
        <Button onPress={onClose} className={secondaryButtonClass}>
          {t('Cancel')}
        </Button>
        <Button isDisabled={isPending} onPress={onConfirm} className={dangerButtonClass}>
          {confirmLabel}
        </Button>
      </div>
    </ModalDialog>
  );
}
