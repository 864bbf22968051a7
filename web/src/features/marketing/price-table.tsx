import type { ReactNode } from 'react';
import type { ModelView, PriceTable as Prices } from '../../../../contract/models/view';
import { cx } from '../../lib/cx';
import { credits } from './price-text';

export interface PriceTableProps {
  model: ModelView;
  prices: Prices;
  caption: ReactNode;
  captionClassName: string;
  className?: string;
}

const cell = (cost: number | null | undefined) => (cost == null ? <span className="text-ink-subtle">not offered</span> : credits(cost));

/**
 * What a model's orders cost, from its registry view: a row per value of the choice that sets the rows (quality) and a
 * column per value of the one that sets the columns (duration); with one such choice, a row per value; with none, the
 * one price. Each cell's test id names the model and both values (`cost-pixverse-720p-8`, `cost-wan-default-5`).
 */
export function PriceTable({ model, prices, caption, captionClassName, className }: PriceTableProps) {
  const { rows, columns, costs } = prices;
  const id = (r: string | number | undefined, c: string | number | undefined) => `cost-${model.id}-${r ?? 'default'}-${c ?? 'default'}`;
  if (!columns) {
    return (
      <p className={cx('text-sm text-ink', className)} data-testid={id(undefined, undefined)}>
        <span className={captionClassName}>{caption}</span> {cell(costs[0]?.[0])} each
      </p>
    );
  }
  const head = 'py-2 pr-4 font-medium';
  return (
    <table className={cx('w-full text-left text-sm', className)}>
      <caption className={captionClassName}>{caption}</caption>
      <thead className="text-ink-subtle">
        <tr>
          <th scope="col" className={head}>
            {(rows ?? columns).label}
          </th>
          {rows ? (
            columns.values.map((c) => (
              <th key={String(c.value)} scope="col" className={head}>
                {c.label}
              </th>
            ))
          ) : (
            <th scope="col" className={head}>
              Price
            </th>
          )}
        </tr>
      </thead>
      <tbody className="text-ink">
        {rows
          ? rows.values.map((r, i) => (
              <tr key={String(r.value)} className="border-t border-line">
                <th scope="row" className={head}>
                  {r.label}
                </th>
                {columns.values.map((c, j) => (
                  <td key={String(c.value)} className="py-2 pr-4" data-testid={id(r.value, c.value)}>
                    {cell(costs[i]?.[j])}
                  </td>
                ))}
              </tr>
            ))
          : columns.values.map((c, j) => (
              <tr key={String(c.value)} className="border-t border-line">
                <th scope="row" className={head}>
                  {c.label}
                </th>
                <td className="py-2 pr-4" data-testid={id(undefined, c.value)}>
                  {cell(costs[0]?.[j])}
                </td>
              </tr>
            ))}
      </tbody>
    </table>
  );
}
