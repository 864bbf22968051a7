/** An inline text link in the app's forms and panels (account pages, My Account, the terms): underlined on hover. */
export const textLinkClass = 'font-medium text-brand-ink underline-offset-4 hover:underline';

/** A link in the marketing pages' prose: always underlined, so it stands out in running text. */
export const marketingLinkClass = 'text-brand-ink underline underline-offset-4 hover:text-ink';
