import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

// A modal dialog on react-aria-components: focus trap, Escape, labelled by
// its heading. Use inside a DialogTrigger or control it with isOpen.
export function ModalDialog({
  title,
  children,
  isOpen,
  onOpenChange,
  className = '',
}: {
  title: string;
  children: ReactNode;
  isOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  className?: string;
}) {
  return (
    <ModalOverlay
      isDismissable
      {...(isOpen !== undefined ? { isOpen } : {})}
      {...(onOpenChange ? { onOpenChange } : {})}
      // modal-dialog: while one is open on a phone, toasts show at the top (index.css), not over its buttons.
      className="modal-dialog fixed inset-0 z-50 flex items-end justify-center bg-black/40 p-4 md:items-center"
    >
      <Modal className={`w-full max-w-md rounded-lg bg-paper text-fg shadow-xl ${className}`}>
        <AriaDialog className="max-h-[85vh] overflow-auto p-4 outline-none">
          <Heading slot="title" className="mb-3 text-lg font-semibold">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
