import { useRef, useState } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { TextField } from '../../../ui/form/TextField';
import { useRoles } from '../api';
import { ConfirmDelete } from '../ConfirmDelete';
import { useDeleteMenu, useSaveMenu, type MenuPosition, type StoredMenu } from './api';
import { MenuItemRow, type DraftItem } from './MenuItemRow';
import { moveItem } from './reorder';
import { useAdminSave } from '../use-admin-save';

const POSITION_LABELS: Record<MenuPosition, string> = {
  navbar: 'Top bar',
  'mobile-menu': 'Mobile menu',
  'user-menu': 'User menu',
  footer: 'Footer',
};

let keySeq = 0;
const draft = (item?: StoredMenu['items'][number]): DraftItem => ({
  ...(item ? { id: item.id } : {}),
  key: item?.id ?? `new-${(keySeq += 1)}`,
  label: item?.label ?? '',
  action: item?.action ?? '',
  target: item?.target === '_blank' || item?.target === '_self' ? item.target : null,
  roles: item?.roles ?? [],
  permissions: item?.permissions.join(', ') ?? '',
});

interface Props {
  menu: StoredMenu | null;
  positions: MenuPosition[];
  onSaved: (id: number) => void;
  onDeleted: () => void;
}

/** One menu's name, positions and items; items reorder by dragging or with the move buttons. */
export function MenuEditor({ menu, positions, onSaved, onDeleted }: Props) {
  const { t } = useTrans();
  const save = useAdminSave(useSaveMenu(menu?.id ?? null), { done: menu ? t('Updated menu') : t('Created menu'), onSaved: (saved) => onSaved(saved.id) });
  const remove = useDeleteMenu();
  const roles = useRoles();
  const [name, setName] = useState(menu?.name ?? '');
  const [chosen, setChosen] = useState<string[]>(menu?.positions ?? []);
  const [items, setItems] = useState<DraftItem[]>(() => (menu?.items ?? []).map(draft));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const dragged = useRef<number | null>(null);
  const error = save.error;

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    save.submit({
      name,
      positions: positions.filter((p) => chosen.includes(p)),
      items: items.map((item) => ({
        ...(item.id ? { id: item.id } : {}),
        label: item.label,
        action: item.action,
        target: item.target,
        roles: item.roles,
        permissions: item.permissions
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      })),
    });
  };

  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">{menu ? t('Edit menu') : t('New menu')}</h2>
      <TextField label={t('Name')} required value={name} onChange={(e) => setName(e.target.value)} error={error('name')} />
      <fieldset>
        <legend className="mb-1 text-sm font-medium">{t('Shown in')}</legend>
        <div className="flex flex-wrap gap-4">
          {positions.map((position) => (
            <label key={position} className="inline-flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={chosen.includes(position)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, position] : c.filter((p) => p !== position)))}
              />
              {t(POSITION_LABELS[position])}
            </label>
          ))}
        </div>
      </fieldset>
      <ol className="flex flex-col gap-2" aria-label={t('Menu items')}>
        {items.map((item, index) => (
          <MenuItemRow
            key={item.key}
            item={item}
            index={index}
            count={items.length}
            roles={roles.data}
            error={error}
            onChange={(next) => setItems((list) => list.map((it, i) => (i === index ? next : it)))}
            onMove={(to) => setItems((list) => moveItem(list, index, to))}
            onRemove={() => setItems((list) => list.filter((_, i) => i !== index))}
            onDragStart={() => (dragged.current = index)}
            onDrop={() => {
              if (dragged.current !== null) setItems((list) => moveItem(list, dragged.current!, index));
              dragged.current = null;
            }}
          />
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => setItems((list) => [...list, draft()])}>
          {t('Add item')}
        </button>
        <span className="mr-auto" />
        {menu && (
          <button type="button" className={dangerButtonClass} onClick={() => setConfirmDelete(true)}>
            {t('Delete menu')}
          </button>
        )}
        <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
          {t('Save')}
        </button>
      </div>
      {confirmDelete && menu && (
        <ConfirmDelete
          id={menu.id}
          title={t('Delete menu')}
          body={t('Delete the menu :name and its items?', { name: menu.name })}
          success={t('Deleted menu')}
          mutation={remove}
          onClose={() => setConfirmDelete(false)}
          onDeleted={onDeleted}
        />
      )}
    </form>
  );
}
