/**
 * An email address shown to whoever holds a payment's order id (the landing page names the buyer this way,
 * never by an internal id): the first character of the local part and of the domain, the top-level domain, e.g.
 * "jane.doe@example.com" -> "j***@e***.com". Free of zod, so public pages can use it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.charAt(0)}***@${host.charAt(0)}***${tld}`;
}
