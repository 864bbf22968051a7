import type { HTMLAttributes } from 'react';
import { cx } from '../lib/cx';

const paddings = { none: '', sm: 'p-4', md: 'p-6', lg: 'p-8' } as const;

export interface CardProps extends HTMLAttributes<HTMLElement> {
  as?: 'div' | 'section' | 'article' | 'aside' | 'li';
  padding?: keyof typeof paddings;
  /** Brand-coloured border and hover glow, for selectable cards. */
  interactive?: boolean;
}

export function Card({ as: Tag = 'div', padding = 'md', interactive = false, className, ...rest }: CardProps) {
  return (
    <Tag
      className={cx(
        'rounded-card border border-line bg-surface shadow-card',
        paddings[padding],
        interactive && 'transition-colors hover:border-brand/60 hover:bg-surface-raised',
        className,
      )}
      {...rest}
    />
  );
}
