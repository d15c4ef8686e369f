import { useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { linkClass, primaryButtonClass } from '../../../ui/form/field-classes';
import { Spinner } from '../../../ui/Spinner';
import { useAdminMenus } from './api';
import { MenuEditor } from './MenuEditor';

/** Stored menus (spec §3 "Menu"): pick one to edit its name, positions and items, or add one. */
export function MenusPage() {
  const { t } = useTrans();
  const menus = useAdminMenus();
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  if (menus.isPending) return <Spinner />;
  if (menus.isError) return <p role="alert">{getErrorMessage(menus.error)}</p>;
  const { menus: list, positions } = menus.data;
  const current = selected === 'new' ? null : (list.find((m) => m.id === selected) ?? list[0] ?? null);
  return (
    <section className="flex flex-col gap-4 md:flex-row">
      <div className="md:w-56">
        <h1 className="mb-3 text-xl font-semibold">{t('Menus')}</h1>
        <ul className="mb-3 flex flex-col gap-1">
          {list.map((menu) => (
            <li key={menu.id}>
              <button
                type="button"
                aria-current={selected !== 'new' && current?.id === menu.id ? 'true' : undefined}
                className={`w-full rounded px-3 py-2 text-left text-sm aria-[current=true]:bg-primary/10 aria-[current=true]:font-semibold ${linkClass}`}
                onClick={() => setSelected(menu.id)}
              >
                {menu.name}
                <span className="block text-xs text-fg-muted">{menu.positions.join(', ') || t('Not shown')}</span>
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className={primaryButtonClass} onClick={() => setSelected('new')}>
          {t('New menu')}
        </button>
      </div>
      <div className="min-w-0 flex-1">
        <MenuEditor
          key={selected === 'new' ? 'new' : (current?.id ?? 'none')}
          menu={selected === 'new' ? null : current}
          positions={positions}
          onSaved={(id) => setSelected(id)}
          onDeleted={() => setSelected(null)}
        />
      </div>
    </section>
  );
}
