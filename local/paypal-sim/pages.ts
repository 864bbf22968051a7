/**
 * HTML of the simulator's buyer-facing pages: the approval sheet (GET /checkoutnow?token=...), the pages shown
 * when an order has no return/cancel URL, and the error pages. Self-contained: inline CSS, no script, no external
 * asset, so the pages work offline and under a strict Content-Security-Policy.
 */
import { escapeHtml } from '../shared/http';

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
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

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
.note{margin:1.25rem 0 0;font-size:.8rem;color:#4a5260;text-align:center}
a{color:#003087}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`;

function layout(title: string, body: string): string {
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
<main class="sheet" aria-labelledby="page-title">
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
