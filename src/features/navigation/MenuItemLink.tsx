import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { MenuItem } from '../../api/bootstrap-types';
import { isExternalAction } from './menu-items';

/** Internal items navigate inside the app; items with a scheme open a new tab. */
export function MenuItemLink({
  item,
  className,
  children,
  isActive = false,
}: {
  item: Pick<MenuItem, 'action' | 'type'> & { target?: string | null };
  className?: string;
  children: ReactNode;
  isActive?: boolean;
}) {
  if (isExternalAction(item.action)) {
    return (
      <a href={item.action} target="_blank" rel="noopener noreferrer" className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link to={item.action} className={className} aria-current={isActive ? 'page' : undefined}>
      {children}
    </Link>
  );
}
