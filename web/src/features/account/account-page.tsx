/**
 * /admin, labelled My Account: 'Logged in as' {email}, the credit balance, and sidebar tabs Change
 * Password, Previous Prompts (the default), My Payments, Buy Credits, Contact, Delete Account. The open tab is in the
 * query string (?tab=buy-credits), so it survives a reload and can be linked to. Each tab is its own
 * file under tabs/ and its own chunk. PayPal brings a buyer back here (/admin?payment=...): the payment
 * notice above the tabs says how it went.
 */
import { Suspense, lazy, useRef, type ComponentType, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/spinner';
import { cx } from '../../lib/cx';
import { useSession } from '../auth';
import { CreditBalance } from '../credits';
import { PaymentReturnNotice } from '../payments';
import { SubscriptionPanel } from '../subscriptions';

export interface AccountTab {
  id: string;
  label: string;
  Component: ComponentType;
}

export const ACCOUNT_TABS: readonly AccountTab[] = [
  { id: 'change-password', label: 'Change Password', Component: lazy(() => import('./tabs/change-password')) },
  { id: 'previous-prompts', label: 'Previous Prompts', Component: lazy(() => import('./tabs/previous-prompts')) },
  { id: 'my-payments', label: 'My Payments', Component: lazy(() => import('./tabs/my-payments')) },
  { id: 'buy-credits', label: 'Buy Credits', Component: lazy(() => import('./tabs/buy-credits')) },
  { id: 'contact', label: 'Contact', Component: lazy(() => import('./tabs/contact')) },
  { id: 'delete-account', label: 'Delete Account', Component: lazy(() => import('./tabs/delete-account')) },
];

export const DEFAULT_ACCOUNT_TAB = 'previous-prompts';

export function AccountPage() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const active = ACCOUNT_TABS.find((t) => t.id === params.get('tab')) ?? ACCOUNT_TABS.find((t) => t.id === DEFAULT_ACCOUNT_TAB)!;
  const activeIndex = ACCOUNT_TABS.indexOf(active);

  const select = (index: number, focus = false) => {
    const tab = ACCOUNT_TABS[(index + ACCOUNT_TABS.length) % ACCOUNT_TABS.length]!;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('tab', tab.id);
        return next;
      },
      { replace: true },
    );
    if (focus) tabRefs.current[ACCOUNT_TABS.indexOf(tab)]?.focus();
  };

  // WAI-ARIA tabs: arrows move between tabs (either axis: vertical on wide screens, a row on phones).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
    if (event.key in moves) select(activeIndex + moves[event.key]!, true);
    else if (event.key === 'Home') select(0, true);
    else if (event.key === 'End') select(ACCOUNT_TABS.length - 1, true);
    else return;
    event.preventDefault();
  };

  const Panel = active.Component;
  return (
    <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6">
      <title>My Account · Framewright</title>
      <div className="flex flex-col gap-4 border-b border-line pb-6 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-ink">My Account</h1>
          <p className="mt-2 text-sm text-ink-muted">
            Logged in as <span className="font-medium break-all text-ink">{user?.email}</span>
          </p>
        </div>
        <CreditBalance className="self-start rounded-card border border-line bg-surface px-4 py-2 sm:self-auto" />
      </div>
      {/* Back from PayPal after buying from the Buy Credits tab: the outcome, whichever tab is open. */}
      <PaymentReturnNotice className="mt-6" />
      {/* The plan: status, next billing, plan and pack credits; subscribe, change or cancel. */}
      <SubscriptionPanel className="mt-6" />
      <div className="mt-8 flex flex-col gap-8 md:flex-row">
        <div
          role="tablist"
          aria-label="My Account"
          aria-orientation="vertical"
          onKeyDown={onKeyDown}
          className="flex shrink-0 flex-wrap gap-1 md:w-56 md:flex-col md:flex-nowrap"
        >
          {ACCOUNT_TABS.map((tab, i) => {
            const selected = tab === active;
            return (
              <button
                key={tab.id}
                ref={(el) => {
                  tabRefs.current[i] = el;
                }}
                type="button"
                role="tab"
                id={`account-tab-${tab.id}`}
                aria-selected={selected}
                aria-controls={`account-panel-${tab.id}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => select(i)}
                className={cx(
                  'whitespace-nowrap rounded-control px-3 py-2 text-left text-sm font-medium transition-colors',
                  selected ? 'bg-surface-raised text-ink' : 'text-ink-muted hover:bg-surface-hover hover:text-ink',
                )}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        <div
          role="tabpanel"
          id={`account-panel-${active.id}`}
          aria-labelledby={`account-tab-${active.id}`}
          tabIndex={0}
          className="min-w-0 flex-1 focus:outline-none"
        >
          <Suspense fallback={<PageLoader label="Loading..." />}>
            <Panel />
          </Suspense>
        </div>
      </div>
    </section>
  );
}

export default AccountPage;
