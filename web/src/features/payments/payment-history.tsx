import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { LedgerEntryView, PaymentOrderView } from '../../../../contract/payments';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Spinner } from '../../components/spinner';
import { cx } from '../../lib/cx';
import { formatDateTime } from '../../lib/format-date-time';
import { errorFetchingData } from '../../lib/messages';
import { formatAmount, formatDelta, ledgerReasonLabel, orderStatusLabel } from './payment-format';
import { fetchPayments } from './payments-api';

/** The spec's loading error (section 8), with the API client's message. */
const fetchError = (err: unknown) => errorFetchingData(err instanceof Error ? err.message : String(err));

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready' };

interface History {
  orders: PaymentOrderView[];
  ledger: LedgerEntryView[];
  nextCursor: string | undefined;
}

const EMPTY: History = { orders: [], ledger: [], nextCursor: undefined };

/** Appends a page, skipping rows already shown (a row may move between pages while new ones arrive). */
function appendUnique<T extends { id: string }>(shown: T[], page: T[]): T[] {
  const ids = new Set(shown.map((r) => r.id));
  return [...shown, ...page.filter((r) => !ids.has(r.id))];
}

export interface PaymentHistoryProps {
  /** Shown with the empty orders list, e.g. a link to buy credits. */
  emptyOrdersAction?: ReactNode;
}

/**
 * The signed-in user's orders (date, pack, amount, status with its date and any open dispute, the receipt's
 * capture id, payment date and refunds) and credit ledger (date, reason, signed
 * change, balance after), newest first, from GET /api/payments, with 'Load more' while the server has more.
 */
export function PaymentHistory({ emptyOrdersAction }: PaymentHistoryProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [history, setHistory] = useState<History>(EMPTY);
  const [more, setMore] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const mounted = useRef(new AbortController());

  const loadFirst = useCallback(async (signal: AbortSignal) => {
    setLoad({ state: 'loading' });
    try {
      const page = await fetchPayments(undefined, signal);
      if (signal.aborted) return;
      setHistory({ orders: page.orders, ledger: page.ledger, nextCursor: page.nextCursor });
      setLoad({ state: 'ready' });
    } catch (err) {
      if (!signal.aborted) setLoad({ state: 'error', message: fetchError(err) });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    mounted.current = controller;
    void loadFirst(controller.signal);
    return () => controller.abort();
  }, [loadFirst]);

  async function loadMore() {
    const signal = mounted.current.signal;
    if (!history.nextCursor || more.busy) return;
    setMore({ busy: true });
    try {
      const page = await fetchPayments(history.nextCursor, signal);
      if (signal.aborted) return;
      setHistory((h) => ({ orders: appendUnique(h.orders, page.orders), ledger: appendUnique(h.ledger, page.ledger), nextCursor: page.nextCursor }));
      setMore({ busy: false });
    } catch (err) {
      if (!signal.aborted) setMore({ busy: false, error: fetchError(err) });
    }
  }

  if (load.state === 'loading') {
    return (
      <div className="flex items-center gap-3 py-10 text-sm text-ink-muted">
        <Spinner size="sm" decorative className="text-brand-ink" />
        <span role="status">Loading...</span>
      </div>
    );
  }
  if (load.state === 'error') {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert variant="error">{load.message}</Alert>
        <Button variant="secondary" size="sm" onClick={() => void loadFirst(mounted.current.signal)}>
          Try again
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="payments-orders-heading">
        <h3 id="payments-orders-heading" className="text-base font-semibold text-ink">
          Orders
        </h3>
        {history.orders.length === 0 ? (
          <EmptyState className="mt-3" title="No payments yet." description="Credit packs you buy appear here." action={emptyOrdersAction} />
        ) : (
          <Table caption="Orders" headers={['Date', 'Pack', 'Amount', 'Status', 'Receipt']} numeric={[2]}>
            {history.orders.map((o) => (
              <tr key={o.id} className={ROW} data-order-id={o.id}>
                <Td label="Date">
                  <time dateTime={o.createdAt}>{formatDateTime(o.createdAt)}</time>
                </Td>
                <Td label="Pack" className="whitespace-nowrap">{o.credits} credits</Td>
                <Td label="Amount" numeric>{formatAmount(o.amount, o.currency)}</Td>
                <Td label="Status">
                  <span className="flex flex-wrap items-center gap-1.5">
                    <span
                      className={cx(
                        'inline-flex rounded-pill px-2 py-0.5 text-xs font-medium',
                        o.status === 'captured' ? 'bg-success-soft text-success' : 'bg-surface-hover text-ink-muted',
                      )}
                    >
                      {orderStatusLabel(o.status)}
                    </span>
                    {o.dispute === 'open' && <span className="inline-flex rounded-pill bg-surface-hover px-2 py-0.5 text-xs font-medium text-ink">Disputed</span>}
                  </span>
                  <time dateTime={o.statusAt} className="mt-1 block text-xs text-ink-muted">
                    {formatDateTime(o.statusAt)}
                  </time>
                </Td>
                <Td label="Receipt" className="text-xs text-ink-muted">
                  <OrderReceipt order={o} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-labelledby="payments-ledger-heading">
        <h3 id="payments-ledger-heading" className="text-base font-semibold text-ink">
          Credit history
        </h3>
        {history.ledger.length === 0 ? (
          <EmptyState className="mt-3" title="No credit changes yet." description="Credits you receive, buy and spend appear here." />
        ) : (
          <Table caption="Credit history" headers={['Date', 'Reason', 'Change', 'Balance']} numeric={[2, 3]}>
            {history.ledger.map((l) => (
              <tr key={l.id} className={ROW}>
                <Td label="Date">
                  <time dateTime={l.createdAt}>{formatDateTime(l.createdAt)}</time>
                </Td>
                <Td label="Reason">{ledgerReasonLabel(l.reason)}</Td>
                <Td label="Change" numeric className={l.delta > 0 ? 'text-success' : l.delta < 0 ? 'text-ink' : 'text-ink-muted'}>
                  {formatDelta(l.delta)}
                </Td>
                <Td label="Balance" numeric>{l.balance}</Td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      {(history.nextCursor || more.error) && (
        <div className="flex flex-col items-start gap-3">
          {more.error && <Alert variant="error">{more.error}</Alert>}
          {history.nextCursor && (
            <Button variant="secondary" loading={more.busy} onClick={() => void loadMore()}>
              Load more
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The receipt's details (as mailed): PayPal's capture id and date; what went back and the credits it took. */
function OrderReceipt({ order: o }: { order: PaymentOrderView }) {
  if (!o.captureId) return <span aria-label="No receipt">-</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2">
      <dt>Capture</dt>
      <dd className="font-mono">{o.captureId}</dd>
      {o.capturedAt && (
        <>
          <dt>Paid</dt>
          <dd>
            <time dateTime={o.capturedAt}>{formatDateTime(o.capturedAt)}</time>
          </dd>
        </>
      )}
      {o.refundedAmount && (
        <>
          <dt>Refunded</dt>
          <dd>
            {formatAmount(o.refundedAmount, o.currency)} ({formatDelta(-(o.creditsTakenBack ?? 0))} credits)
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * A table on a wide screen; on a phone each row is a card whose cells name their column (the header row stays for
 * screen readers), so nothing scrolls sideways.
 */
function Table({ caption, headers, numeric, children }: { caption: string; headers: string[]; numeric: number[]; children: ReactNode }) {
  return (
    <div className="mt-3 sm:overflow-x-auto sm:rounded-card sm:border sm:border-line">
      <table className="w-full text-left text-sm max-sm:block sm:min-w-[20rem]">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-raised text-xs uppercase tracking-wide text-ink-subtle max-sm:sr-only">
          <tr>
            {headers.map((h, i) => (
              <th key={h} scope="col" className={cx('px-3 py-2 font-medium sm:px-4', numeric.includes(i) && 'text-right')}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="text-ink max-sm:flex max-sm:flex-col max-sm:gap-3 sm:bg-surface">{children}</tbody>
      </table>
    </div>
  );
}

/** A row: a card on a phone. */
const ROW = 'border-t border-line max-sm:block max-sm:rounded-card max-sm:border max-sm:bg-surface max-sm:py-1';

function Td({ label, children, numeric, className }: { label: string; children: ReactNode; numeric?: boolean; className?: string }) {
  return (
    <td
      data-label={label}
      className={cx(
        'px-3 py-2.5 align-top sm:px-4',
        // On a phone: "Label   value", the label from data-label (the header row is visually hidden there).
        'max-sm:grid max-sm:grid-cols-[6.5rem_1fr] max-sm:gap-2 max-sm:py-1.5 max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-ink-subtle max-sm:before:uppercase max-sm:before:content-[attr(data-label)]',
        numeric && 'whitespace-nowrap tabular-nums sm:text-right',
        className,
      )}
    >
      {children}
    </td>
  );
}
