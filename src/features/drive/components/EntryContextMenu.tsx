import { useRef } from 'react';
import { Menu, MenuItem, Popover, Text } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import type { FileEntry } from '../api/types';
import { ACTIONS, actionsFor, disabledReason } from '../lib/actions';
import type { ActionId } from '../lib/actions';
import type { DriveViewId } from '../lib/views';
import { useOfflineSelection } from '../offline/selection';

export interface ContextMenuState {
  entries: FileEntry[];
  x: number;
  y: number;
}

/** The right-click menu of the selected entries, opened where the pointer is. */
export function EntryContextMenu({
  state,
  view,
  online,
  onAction,
  onClose,
}: {
  state: ContextMenuState | null;
  view: DriveViewId;
  online: boolean;
  onAction: (action: ActionId, entries: FileEntry[]) => void;
  onClose: () => void;
}) {
  const { t } = useTrans();
  const anchor = useRef<HTMLDivElement>(null);
  const offline = useOfflineSelection(state?.entries ?? []);
  const ids = state ? actionsFor(view, state.entries, offline) : [];
  const disabled = ids.filter((id) => disabledReason(id, online, offline));
  return (
    <>
      <div ref={anchor} aria-hidden="true" className="fixed size-0" style={{ left: state?.x ?? 0, top: state?.y ?? 0 }} />
      {state && (
        <Popover
          triggerRef={anchor}
          isOpen
          onOpenChange={(open) => !open && onClose()}
          placement="bottom start"
          className="z-50 min-w-56 rounded-lg border border-divider bg-paper py-1 text-fg shadow-xl"
        >
          <Menu
            aria-label={t('Actions')}
            autoFocus="first"
            disabledKeys={disabled}
            onAction={(key) => {
              onAction(key as ActionId, state.entries);
              onClose();
            }}
            className="max-h-[420px] overflow-auto outline-none"
          >
            {ids.map((id) => {
              const action = ACTIONS[id];
              const reason = disabledReason(id, online, offline);
              return (
                <MenuItem
                  key={id}
                  id={id}
                  textValue={t(action.label)}
                  className={`flex cursor-default items-center gap-3 px-3 py-2 text-sm outline-none data-[disabled]:opacity-50 data-[focused]:bg-fg/10 ${action.danger ? 'text-danger' : ''}`}
                >
                  <Icon name={action.icon} className="size-5 shrink-0" />
                  <span className="flex flex-col">
                    <Text slot="label">{t(action.label)}</Text>
                    {reason && (
                      <Text slot="description" className="text-xs text-fg-muted">
                        {t(reason)}
                      </Text>
                    )}
                  </span>
                </MenuItem>
              );
            })}
          </Menu>
        </Popover>
      )}
    </>
  );
}
