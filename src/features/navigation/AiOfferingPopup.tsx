import { useRef, useState } from 'react';
import { Button, Dialog, Popover } from 'react-aria-components';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';

const HOVER_CLOSE_DELAY = 150;

/**
 * An icon that opens a popup teasing the company's AI offering on hover
 * (and on press, so keyboard and touch users reach it too). Closing waits
 * 150 ms (spec §9) so the pointer can travel into the popup.
 */
export function AiOfferingPopup() {
  const { t } = useTrans();
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const handleEnter = () => {
    clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const handleLeave = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setOpen(false), HOVER_CLOSE_DELAY);
  };

  return (
    <>
      <Button
        ref={triggerRef}
        aria-label={t('AI assistant')}
        aria-expanded={open}
        onHoverStart={handleEnter}
        onHoverEnd={handleLeave}
        onPress={() => setOpen((v) => !v)}
        className="inline-flex size-10 items-center justify-center rounded-full text-primary hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <Icon name="sparkle" />
      </Button>
      <Popover
        triggerRef={triggerRef}
        isOpen={open}
        onOpenChange={setOpen}
        isNonModal
        placement="bottom"
        offset={8}
        className="z-50 w-72 rounded-lg border border-divider bg-paper p-4 text-fg shadow-xl"
      >
        <Dialog aria-label={t('AI assistant')} className="outline-none" onMouseEnter={handleEnter} onMouseLeave={handleLeave}>
          <p className="font-semibold">{t('Meet your AI assistant')}</p>
          <p className="mt-1 text-sm text-fg-muted">{t('Search, summarise and organise your files with AI. Coming soon to your drive.')}</p>
        </Dialog>
      </Popover>
    </>
  );
}
