import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay, Popover } from 'react-aria-components';
import { useIsMobile } from './use-media-query';

/**
 * Popover content for a DialogTrigger that turns into a modal under 768 px
 * (spec §2 "On mobile popovers turn into modals"). Max height 420 per §9.
 */
export function ResponsivePopover({
  label,
  children,
  className = 'w-80 p-4',
}: {
  label: string;
  /** A function child receives `close`, as react-aria's Dialog gives it. */
  children: ReactNode | ((opts: { close: () => void }) => ReactNode);
  className?: string;
}) {
  const isMobile = useIsMobile();
  if (isMobile) {
    return (
      <ModalOverlay isDismissable className="fixed inset-0 z-50 flex items-end bg-black/40">
        <Modal className="w-full rounded-t-lg bg-paper text-fg shadow-xl">
          <Dialog aria-label={label} className="max-h-[80vh] overflow-auto p-4 outline-none">
            {(opts) => (
              <>
                <Heading slot="title" className="sr-only">
                  {label}
                </Heading>
                {typeof children === 'function' ? children(opts) : children}
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    );
  }
  return (
    <Popover
      placement="bottom end"
      offset={8}
      className={`z-50 max-h-[420px] overflow-auto rounded-lg border border-divider bg-paper text-fg shadow-xl ${className}`}
    >
      <Dialog aria-label={label} className="outline-none">
        {children}
      </Dialog>
    </Popover>
  );
}
