import { NavLink } from 'react-router-dom';
import { cx } from '../../lib/cx';

/** A header entry: a route link, or an action such as Logout. */
export type NavItem = { label: string; to: string; end?: boolean } | { label: string; onSelect: () => void };

export const navItemClass =
  'block rounded-control px-3 py-2 text-sm font-medium text-ink-muted transition-colors hover:bg-surface-hover hover:text-ink';

export function NavItems({ items }: { items: readonly NavItem[] }) {
  return (
    <ul className="flex flex-col gap-1 md:flex-row md:items-center">
      {items.map((item) => (
        <li key={item.label}>
          {'to' in item ? (
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) => cx(navItemClass, isActive && 'bg-surface-raised text-ink')}
            >
              {item.label}
            </NavLink>
          ) : (
            <button type="button" onClick={item.onSelect} className={cx(navItemClass, 'w-full text-left')}>
              {item.label}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
