/**
 * Searching results by prompt words: a result matches when its prompt holds every word of the search, in any case
 * and order, as part of a word too ("light" finds "lighthouse"). Pure, so the DynamoDB list and the use-case tests'
 * in-memory list match the same way.
 */

/** The search's words: lower-cased, each once, in the order typed. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return [...new Set(q.toLowerCase().split(/\s+/u).filter(Boolean))];
}

export function promptMatches(prompt: string, words: readonly string[]): boolean {
  const text = prompt.toLowerCase();
  return words.every((w) => text.includes(w));
}
