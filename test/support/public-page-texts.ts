/**
 * What each public page must say in its static HTML, before any script runs (texts from the spec and the pages):
 * its title, its h1 and a sentence of its main text. Read by the prerender test and `npm run bench:web`.
 */
export const PUBLIC_PAGE_TEXTS: Readonly<Record<string, { title: string; h1: string; text: string }>> = {
  '/': { title: 'Framewright · AI image and video studio', h1: 'Framewright', text: 'Start Creating' },
  '/features': { title: 'The models behind Framewright · Framewright', h1: 'The models behind Framewright', text: 'Pixverse' },
  '/learn': { title: 'Your first clip in six steps · Framewright', h1: 'Your first clip in six steps', text: 'credits' },
  '/contact': { title: 'Talk to a human · Framewright', h1: 'Talk to a human', text: '48 hours' },
  '/example': { title: 'Prompts, settings and results · Framewright', h1: 'Prompts, settings and results', text: 'Wan 2.1' },
  '/faq': { title: 'FAQ · Framewright', h1: 'Frequently asked questions', text: 'credits' },
  '/pricing': { title: 'Pricing · Framewright', h1: 'Monthly plans and credit packs', text: 'Buy with PayPal' },
  '/terms': { title: 'Terms and Conditions · Framewright', h1: 'Terms and Conditions', text: '18 years of age or older' },
  '/account-deleted': { title: 'Your account is deleted · Framewright', h1: 'Your account is deleted', text: 'Records of your purchases are kept for accounting' },
};

/** The markup without scripts, as text: what a crawler reads before any script runs. */
export const staticText = (html: string): string =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** Whether the static HTML has the page's h1 (as its text) and its main text. */
export function staticHtmlProblems(html: string, want: { h1: string; text: string }): string[] {
  const problems: string[] = [];
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  if (!h1) problems.push('no <h1> in the HTML');
  else if (staticText(h1[1]!).trim() !== want.h1) problems.push(`h1 is "${staticText(h1[1]!).trim()}", not "${want.h1}"`);
  if (!staticText(html).includes(want.text)) problems.push(`"${want.text}" is not in the HTML's text`);
  return problems;
}
