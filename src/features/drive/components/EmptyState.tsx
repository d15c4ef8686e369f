import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import type { IconName } from '../../../ui/icons';
import type { EmptyMessage } from '../lib/empty-states';

export function EmptyState({ message, icon = 'folder' }: { message: EmptyMessage; icon?: IconName }) {
  const { t } = useTrans();
  return (
    <div data-testid="empty-state" className="flex flex-col items-center justify-center gap-2 px-4 py-16 text-center">
      <Icon name={icon} className="size-16 text-fg-muted/40" />
      <h2 className="text-lg font-semibold">{t(message.title)}</h2>
      {message.text && <p className="text-sm text-fg-muted">{t(message.text)}</p>}
    </div>
  );
}
