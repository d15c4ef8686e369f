import { Button, Menu, MenuItem, MenuTrigger, Popover, Section, Separator } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import type { OrderBy } from '../api/types';
import type { SortDescriptor } from '../lib/views';

const FIELDS: { id: OrderBy; label: string }[] = [
  { id: 'name', label: 'Name' },
  { id: 'updated_at', label: 'Last modified' },
  { id: 'created_at', label: 'Upload date' },
  { id: 'file_size', label: 'Size' },
  { id: 'type', label: 'Type' },
];

const itemClass = 'flex cursor-default items-center gap-2 px-3 py-2 text-sm outline-none data-[focused]:bg-fg/10';

/** Sort by a column and direction (spec §9: default last modified, newest first). */
export function SortMenu({ sort, onChange }: { sort: SortDescriptor; onChange: (sort: SortDescriptor) => void }) {
  const { t } = useTrans();
  const current = FIELDS.find((f) => f.id === sort.orderBy);
  return (
    <MenuTrigger>
      <Button
        aria-label={t('Sort by')}
        className="inline-flex items-center gap-1 rounded px-2 py-1.5 text-sm text-fg-muted hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <Icon name="sort" className="size-5" />
        <span className="hidden sm:inline">{current ? t(current.label) : ''}</span>
        <Icon name={sort.orderDir === 'asc' ? 'arrowUpward' : 'arrowDownward'} className="size-4" />
      </Button>
      <Popover placement="bottom end" className="z-50 min-w-48 rounded-lg border border-divider bg-paper py-1 text-fg shadow-xl">
        <Menu aria-label={t('Sort by')} className="outline-none">
          <Section>
            {FIELDS.map((field) => (
              <MenuItem key={field.id} id={field.id} textValue={t(field.label)} onAction={() => onChange({ ...sort, orderBy: field.id })} className={itemClass}>
                <Icon name="check" className={`size-4 ${sort.orderBy === field.id ? '' : 'invisible'}`} />
                {t(field.label)}
              </MenuItem>
            ))}
          </Section>
          <Separator className="my-1 border-t border-divider" />
          <Section>
            {(['asc', 'desc'] as const).map((dir) => (
              <MenuItem
                key={dir}
                id={dir}
                textValue={t(dir === 'asc' ? 'Ascending' : 'Descending')}
                onAction={() => onChange({ ...sort, orderDir: dir })}
                className={itemClass}
              >
                <Icon name="check" className={`size-4 ${sort.orderDir === dir ? '' : 'invisible'}`} />
                {t(dir === 'asc' ? 'Ascending' : 'Descending')}
              </MenuItem>
            ))}
          </Section>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
