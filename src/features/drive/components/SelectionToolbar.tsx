import { useAtom } from 'jotai';
import { useTrans } from '../../../i18n/use-trans';
import { ActionButton } from '../../../ui/ActionButton';
import { Icon } from '../../../ui/icons';
import type { FileEntry } from '../api/types';
import { ACTIONS, actionsFor, disabledReason } from '../lib/actions';
import type { ActionId } from '../lib/actions';
import type { DriveViewId, SortDescriptor } from '../lib/views';
import { detailsOpenAtom, viewModeAtom } from '../state';
import { useOfflineSelection } from '../offline/selection';
import { SortMenu } from './SortMenu';

/** The actions of the selection, then the layout controls: sort, list/grid, details. */
export function SelectionToolbar({
  view,
  selected,
  online,
  onAction,
  sort,
  onSortChange,
}: {
  view: DriveViewId;
  selected: FileEntry[];
  online: boolean;
  onAction: (action: ActionId, entries: FileEntry[]) => void;
  sort: SortDescriptor;
  onSortChange: (sort: SortDescriptor) => void;
}) {
  const { t } = useTrans();
  const [mode, setMode] = useAtom(viewModeAtom);
  const [details, setDetails] = useAtom(detailsOpenAtom);
  const offline = useOfflineSelection(selected);
  const actions = actionsFor(view, selected, offline).filter((id) => id !== 'details');
  return (
    <div role="toolbar" aria-label={t('Toolbar')} className="flex min-h-12 flex-wrap items-center gap-1 border-b border-divider px-2 py-1">
      {selected.length > 0 && (
        <span className="mr-2 text-sm text-fg-muted" aria-live="polite">
          {t(':count selected', { count: selected.length })}
        </span>
      )}
      {actions.map((id) => {
        const reason = disabledReason(id, online, offline);
        return (
          <ActionButton key={id} label={t(ACTIONS[id].label)} disabledReason={reason ? t(reason) : null} onPress={() => onAction(id, selected)}>
            <Icon name={ACTIONS[id].icon} className="size-5" />
          </ActionButton>
        );
      })}
      <span className="flex-1" />
      <SortMenu sort={sort} onChange={onSortChange} />
      <ActionButton label={t(mode === 'list' ? 'Grid view' : 'List view')} onPress={() => setMode(mode === 'list' ? 'grid' : 'list')}>
        <Icon name={mode === 'list' ? 'gridView' : 'viewList'} className="size-5" />
      </ActionButton>
      <ActionButton label={t('Details')} pressed={details} onPress={() => setDetails(!details)}>
        <Icon name="info" className="size-5" />
      </ActionButton>
    </div>
  );
}
