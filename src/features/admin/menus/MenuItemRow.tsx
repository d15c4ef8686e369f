import { useTrans } from '../../../i18n/use-trans';
import { IconButton } from '../../../ui/IconButton';
import { Icon } from '../../../ui/icons';
import { TextField } from '../../../ui/form/TextField';
import { SelectField } from '../../../ui/form/SelectField';

export interface DraftItem {
  /** Kept for saved items; new ones get an id from the server. */
  id?: string;
  key: string;
  label: string;
  action: string;
  target: '_blank' | '_self' | null;
  roles: number[];
  permissions: string;
}

interface Props {
  item: DraftItem;
  index: number;
  count: number;
  roles: { id: number; name: string }[] | undefined;
  error: (field: string) => string | undefined;
  onChange: (item: DraftItem) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  onDragStart: () => void;
  onDrop: () => void;
}

/** One menu item: its fields, a drag handle, and move up/down buttons for keyboards and screen readers. */
export function MenuItemRow({ item, index, count, roles, error, onChange, onMove, onRemove, onDragStart, onDrop }: Props) {
  const { t } = useTrans();
  const field = (name: string) => error(`items.${index}.${name}`);
  return (
    <li
      draggable
      onDragStart={onDragStart}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        onDrop();
      }}
      aria-label={item.label || t('New item')}
      className="flex flex-col gap-2 rounded border border-divider p-3"
    >
      <div className="flex items-center gap-1">
        <span aria-hidden="true" className="cursor-grab text-fg-muted" title={t('Drag to reorder')}>
          ⠿
        </span>
        <span className="mr-auto text-sm font-medium">{item.label || t('New item')}</span>
        <IconButton label={t('Move up')} isDisabled={index === 0} onPress={() => onMove(index - 1)}>
          <Icon name="arrowUpward" className="size-5" />
        </IconButton>
        <IconButton label={t('Move down')} isDisabled={index === count - 1} onPress={() => onMove(index + 1)}>
          <Icon name="arrowDownward" className="size-5" />
        </IconButton>
        <IconButton label={t('Remove item')} onPress={onRemove}>
          <Icon name="delete" className="size-5" />
        </IconButton>
      </div>
      <div className="grid gap-2 md:grid-cols-2">
        <TextField label={t('Label')} required value={item.label} onChange={(e) => onChange({ ...item, label: e.target.value })} error={field('label')} />
        <TextField
          label={t('Link')}
          required
          value={item.action}
          placeholder="/pages/about"
          onChange={(e) => onChange({ ...item, action: e.target.value })}
          error={field('action')}
        />
        <SelectField
          label={t('Opens in')}
          value={item.target ?? ''}
          onChange={(e) => onChange({ ...item, target: e.target.value === '_blank' ? '_blank' : e.target.value === '_self' ? '_self' : null })}
        >
          <option value="">{t('Default (addresses with a scheme open a new tab)')}</option>
          <option value="_self">{t('The same tab')}</option>
          <option value="_blank">{t('A new tab')}</option>
        </SelectField>
        <TextField
          label={t('Required permissions')}
          value={item.permissions}
          description={t('Names separated by commas, e.g. admin.access')}
          onChange={(e) => onChange({ ...item, permissions: e.target.value })}
          error={field('permissions')}
        />
      </div>
      {roles && roles.length > 0 && (
        <fieldset>
          <legend className="text-sm font-medium">{t('Required roles')}</legend>
          <div className="flex flex-wrap gap-3">
            {roles.map((role) => (
              <label key={role.id} className="inline-flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={item.roles.includes(role.id)}
                  onChange={(e) => onChange({ ...item, roles: e.target.checked ? [...item.roles, role.id] : item.roles.filter((id) => id !== role.id) })}
                />
                {role.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </li>
  );
}
