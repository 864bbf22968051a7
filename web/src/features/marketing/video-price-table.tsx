import type { ReactNode } from 'react';
import { cx } from '../../lib/cx';
import { credits, videoPriceRows, type VideoFamily } from './prices';

export interface VideoPriceTableProps {
  family: VideoFamily;
  caption: ReactNode;
  captionClassName: string;
  /** A duration's column heading, e.g. '5 s' or '5-second clip'. */
  durationLabel: (seconds: number) => string;
  className?: string;
}

/** What each of a video model's options costs in credits: a row per quality, a column per duration. */
export function VideoPriceTable({ family, caption, captionClassName, durationLabel, className }: VideoPriceTableProps) {
  const rows = videoPriceRows().filter((r) => r.family.id === family.id);
  return (
    <table className={cx('w-full text-left text-sm', className)}>
      <caption className={captionClassName}>{caption}</caption>
      <thead className="text-ink-subtle">
        <tr>
          <th scope="col" className="py-2 pr-4 font-medium">
            {family.qualities.length ? 'Quality' : 'Resolution'}
          </th>
          {family.durations.map((d) => (
            <th key={d} scope="col" className="py-2 pr-4 font-medium">
              {durationLabel(d)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="text-ink">
        {rows.map((row) => (
          <tr key={row.quality ?? 'default'} className="border-t border-line">
            <th scope="row" className="py-2 pr-4 font-medium">
              {row.quality ?? '480p'}
            </th>
            {row.costs.map((c) => (
              <td key={c.duration} className="py-2 pr-4" data-testid={`cost-${family.id}-${row.quality ?? 'default'}-${c.duration}`}>
                {c.cost === undefined ? <span className="text-ink-subtle">not offered</span> : credits(c.cost)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
