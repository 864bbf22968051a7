const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO timestamp as the viewer's local date and time ("Jun 7, 2025, 3:04 PM"), or `fallback` when it is not a date. */
export function formatDateTime(iso: string, fallback: string = iso): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? fallback : dateTime.format(ms);
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An ISO timestamp as the viewer's local date ("Jun 7, 2025"), or `fallback` when it is not a date. */
export function formatDate(iso: string, fallback: string = iso): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? fallback : dateOnly.format(ms);
}
