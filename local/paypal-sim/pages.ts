/**
 * HTML of the simulator's buyer-facing pages: the approval sheet (GET /checkoutnow?token=...), the pages shown
 * when an order has no return/cancel URL, and the error pages. Self-contained: inline CSS, no script, no external
 * asset, so the pages work offline and under a strict Content-Security-Policy.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml, sendHtml } from '../shared/http';

/** "$6.99" for display; falls back to the bare value for a currency Intl does not know. */
export function formatMoney(value: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(value));
  } catch {
    return value;
  }
}

export interface ApprovalLine {
  description?: string;
  value: string;
  currency: string;
}

export interface ApprovalView {
  token: string;
  brandName: string;
  lines: ApprovalLine[];
  total: { value: string; currency: string };
  buyerEmail: string;
}

/** The Content-Security-Policy the pages are served with (inline style only; forms may post anywhere). */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

/** A page of the simulator's, under its CSP. */
export function sendPage(res: ServerResponse, status: number, html: string): void {
  sendHtml(res, status, html, { 'content-security-policy': PAGE_CSP, 'referrer-policy': 'no-referrer' });
}

const STYLE = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1a1a;background:#f2f4f7}
body{margin:0;min-height:100vh;display:flex;align-items:flex-start;justify-content:center;padding:2rem 1rem}
.sheet{width:100%;max-width:26rem;background:#fff;border-radius:1rem;box-shadow:0 .5rem 2rem rgba(0,0,0,.12);overflow:hidden}
.bar{display:flex;align-items:center;justify-content:space-between;padding:1rem 1.5rem;background:#003087;color:#fff}
.logo{font-weight:800;font-size:1.25rem;font-style:italic;letter-spacing:-.02em}
.logo b{color:#9bd3ff}
.sandbox{font-size:.75rem;background:#ffd140;color:#1a1a1a;border-radius:999px;padding:.2rem .6rem;font-weight:600}
.content{padding:1.5rem}
h1{font-size:1.25rem;margin:0 0 1rem}
dl{margin:0 0 1.25rem;border:1px solid #d6dbe1;border-radius:.75rem}
dl div{display:flex;justify-content:space-between;gap:1rem;padding:.75rem 1rem;border-top:1px solid #d6dbe1}
dl div:first-child{border-top:0}
dt{color:#4a5260}
dd{margin:0;text-align:right;font-weight:600}
.total dt,.total dd{font-size:1.125rem;color:#1a1a1a;font-weight:700}
.buyer{margin:0 0 1.25rem;font-size:.95rem}
form{margin:0}
button{width:100%;font:inherit;font-weight:700;border-radius:999px;padding:.85rem 1rem;cursor:pointer;border:2px solid transparent}
button:focus-visible{outline:3px solid #1a1a1a;outline-offset:3px}
.primary{background:#0070e0;color:#fff;margin-bottom:.75rem}
.primary:hover{background:#005ea6}
.secondary{background:#fff;color:#003087;border-color:#003087}
.secondary:hover{background:#eef4fb}
label.funding{display:block;font-size:.85rem;color:#4a5260;margin:0 0 .35rem}
select.funding{width:100%;font:inherit;padding:.5rem;border:1px solid #d6dbe1;border-radius:.5rem;margin:0 0 1rem}
table{width:100%;border-collapse:collapse;font-size:.85rem;margin:0 0 1rem}
th,td{text-align:left;padding:.4rem;border-top:1px solid #d6dbe1;vertical-align:top}
td form{display:inline-block;margin:0 .25rem .25rem 0}
td button{width:auto;padding:.3rem .7rem;font-size:.8rem}
td input{width:5rem;font:inherit;padding:.25rem}
.wide{max-width:64rem}
.note{margin:1.25rem 0 0;font-size:.8rem;color:#4a5260;text-align:center}
a{color:#003087}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`;

function layout(title: string, body: string, wide = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main class="sheet${wide ? ' wide' : ''}" aria-labelledby="page-title">
<header class="bar"><span class="logo" aria-hidden="true">Pay<b>Pal</b></span><span class="sandbox">Sandbox simulator</span></header>
<div class="content">
${body}
</div>
</main>
</body>
</html>
`;
}

export function renderApprovalPage(v: ApprovalView): string {
  const brand = escapeHtml(v.brandName);
  const token = escapeHtml(v.token);
  const rows = v.lines
    .map((l, i) => {
      const label = l.description ? escapeHtml(l.description) : v.lines.length > 1 ? `Item ${i + 1}` : 'Item';
      return `<div><dt>${label}</dt><dd>${escapeHtml(formatMoney(l.value, l.currency))} ${escapeHtml(l.currency)}</dd></div>`;
    })
    .join('\n');
  const total = `${escapeHtml(formatMoney(v.total.value, v.total.currency))} ${escapeHtml(v.total.currency)}`;
  return layout(
    `Pay ${v.brandName} with PayPal (simulator)`,
    `<h1 id="page-title">Pay ${brand}</h1>
<h2 class="visually-hidden">Order summary</h2>
<dl aria-label="Order summary">
<div><dt>Merchant</dt><dd>${brand}</dd></div>
${rows}
<div class="total"><dt>Total</dt><dd data-amount="${escapeHtml(v.total.value)}" data-currency="${escapeHtml(v.total.currency)}">${total}</dd></div>
</dl>
<p class="buyer">Paying as <strong>${escapeHtml(v.buyerEmail)}</strong> with PayPal balance.</p>
<form method="post" action="/checkoutnow/approve" aria-label="Approve payment">
<input type="hidden" name="token" value="${token}">
<label class="funding" for="funding">Simulated funding outcome</label>
<select id="funding" name="funding" class="funding">
<option value="COMPLETED" selected>Completes at once</option>
<option value="PENDING">Held for review (PENDING)</option>
<option value="DECLINED">Declined at capture (DECLINED)</option>
<option value="INSTRUMENT_DECLINED">Card declined: choose another (INSTRUMENT_DECLINED)</option>
</select>
<button type="submit" class="primary">Pay now</button>
</form>
<form method="post" action="/checkoutnow/cancel" aria-label="Cancel payment">
<input type="hidden" name="token" value="${token}">
<button type="submit" class="secondary">Cancel and return</button>
</form>
<p class="note">This is a local PayPal simulator: no money moves.</p>`,
  );
}

/** Shown after approval/cancel when the order has no return_url/cancel_url to go back to. */
export function renderResultPage(title: string, message: string): string {
  return layout(`${title} (PayPal simulator)`, `<h1 id="page-title">${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

export function renderErrorPage(title: string, message: string): string {
  return layout(
    `${title} (PayPal simulator)`,
    `<h1 id="page-title">${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>\n<p class="note">Return to the merchant's site and start the checkout again.</p>`,
  );
}

export interface DashboardRow {
  orderId: string;
  captureId: string;
  status: string;
  amount: string;
  currency: string;
  refunded: string;
  disputes: { id: string; status: string }[];
}

/**
 * GET /simulator: every capture with what PayPal's merchant dashboard (and the buyer's bank) can do to it: refund
 * (all, or an amount), reverse (a chargeback), open a dispute and decide it, complete or deny a pending capture.
 * The forms POST to the documented /simulator/... endpoints, which answer by coming back here.
 */
export function renderDashboard(rows: DashboardRow[]): string {
  const action = (path: string, label: string, extra = '') =>
    `<form method="post" action="${escapeHtml(path)}">${extra}<button type="submit" class="secondary">${escapeHtml(label)}</button></form>`;
  const body = rows
    .map((r) => {
      const c = encodeURIComponent(r.captureId);
      const actions: string[] = [];
      if (r.status === 'PENDING') actions.push(action(`/simulator/captures/${c}/complete`, 'Complete'), action(`/simulator/captures/${c}/deny`, 'Deny'));
      if (r.status === 'COMPLETED' || r.status === 'PARTIALLY_REFUNDED') {
        actions.push(
          action(`/simulator/captures/${c}/refund`, 'Refund', `<label class="visually-hidden" for="amount-${c}">Amount</label><input id="amount-${c}" name="amount" placeholder="all" inputmode="decimal">`),
          action(`/simulator/captures/${c}/reverse`, 'Reverse'),
          action(`/simulator/captures/${c}/dispute`, 'Open dispute'),
        );
      }
      for (const d of r.disputes.filter((x) => x.status === 'OPEN')) {
        const id = encodeURIComponent(d.id);
        actions.push(action(`/simulator/disputes/${id}/resolve`, `${d.id}: buyer wins`, '<input type="hidden" name="favour" value="buyer">'));
        actions.push(action(`/simulator/disputes/${id}/resolve`, `${d.id}: seller wins`, '<input type="hidden" name="favour" value="seller">'));
      }
      const disputes = r.disputes.map((d) => `${escapeHtml(d.id)} (${escapeHtml(d.status)})`).join(', ');
      return `<tr><td>${escapeHtml(r.orderId)}</td><td>${escapeHtml(r.captureId)}</td><td>${escapeHtml(r.status)}</td><td>${escapeHtml(formatMoney(r.amount, r.currency))}</td><td>${escapeHtml(formatMoney(r.refunded, r.currency))}</td><td>${disputes}</td><td>${actions.join('')}</td></tr>`;
    })
    .join('\n');
  return layout(
    'PayPal simulator dashboard',
    `<h1 id="page-title">Captures</h1>
<table><caption class="visually-hidden">Captures</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Capture</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col">Refunded</th><th scope="col">Disputes</th><th scope="col">Actions</th></tr></thead>
<tbody>${body || '<tr><td colspan="7">No captures yet.</td></tr>'}</tbody></table>
<p class="note">Each action sends PayPal's webhooks to the merchant, as PayPal would.</p>`,
    true,
  );
}
