import { escapeHtml as esc } from '../shared/http';
import type { MailboxMessage } from './index';

/** The dev mailbox: every email the system sent, newest first, readable without any tool. */
export function mailboxPage(messages: MailboxMessage[]): string {
  const items = messages
    .map(
      (m) => `<article>
  <header><h2>${esc(m.subject)}</h2><p><b>To</b> ${esc(m.to.join(', '))} · <b>From</b> ${esc(m.from)}${m.replyTo.length ? ` · <b>Reply-To</b> ${esc(m.replyTo.join(', '))}` : ''} · <time datetime="${m.at}">${esc(new Date(m.at).toLocaleString('en-GB', { timeZone: 'UTC' }))} UTC</time></p></header>
  ${m.html ? `<iframe title="${esc(m.subject)}" sandbox="allow-top-navigation-by-user-activation allow-popups" srcdoc="${esc(m.html)}"></iframe>` : `<pre>${esc(m.text)}</pre>`}
</article>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dev mailbox · Framewright</title><meta http-equiv="refresh" content="10">
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#0f1117;color:#e6e8ef}main{max-width:860px;margin:0 auto;padding:24px}
h1{font-size:22px}article{background:#181b24;border:1px solid #2a2f3d;border-radius:12px;padding:16px;margin:16px 0}h2{font-size:17px;margin:0}
header p{margin:4px 0 12px;color:#a6adbf;font-size:13px}iframe{width:100%;min-height:180px;border:0;background:#fff;border-radius:8px}pre{white-space:pre-wrap}</style></head>
<body><main><h1>Dev mailbox</h1><p>Every email the local stack sent (verification codes, password resets, contact messages). JSON: <a href="/_dev/mailbox.json" style="color:#9db4ff">/_dev/mailbox.json</a>.</p>
${items || '<p>No email yet.</p>'}</main></body></html>`;
}
