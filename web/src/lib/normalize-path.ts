/** A pathname without its trailing slashes, as react-router matches it ('/faq/' is '/faq'); '/' stays '/'. */
export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
