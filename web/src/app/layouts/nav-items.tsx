import { cx } from '../../lib/cx';
import { AppLink, isActivePath, useNavigation } from '../../lib/navigation';

/** A header entry: a route link, or an action such as Logout. */
export type NavItem = { label: string; to: string; end?: boolean } | { label: string; onSelect: () => void };

export const navItemClass =
  'block rounded-control px-3 py-2 text-sm font-medium text-ink-muted transition-colors hover:bg-surface-hover hover:text-ink';

export function NavItems({ items }: { items: readonly NavItem[] }) {
  const { pathname } = useNavigation();
  return (
    <ul className="flex flex-col gap-1 md:flex-row md:items-center">
      {items.map((item) => {
        if (!('to' in item)) {
          return (
            <li key={item.label}>
              <button type="button" onClick={item.onSelect} className={cx(navItemClass, 'w-full text-left')}>
                {item.label}
              </button>
            </li>
          );
        }
        // The link of the page on screen is marked like react-router's NavLink does it.
        const active = isActivePath(pathname, item.to, item.end);
        return (
          <li key={item.label}>
            <AppLink to={item.to} aria-current={active ? 'page' : undefined} className={cx(navItemClass, active && 'bg-surface-raised text-ink')}>
              {item.label}
            </AppLink>
          </li>
        );
      })}
    </ul>
  );
}
