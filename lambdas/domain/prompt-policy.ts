/**
 * The prompt policy (docs/prompt-policy.md) as rules on text: which forbidden category, if any, a prompt or a negative
 * prompt asks for. The text is first read the way a model reads it (readPrompt, below): whatever a person can hide
 * from a word list but not from a text encoder (invisible characters, spaced or dotted letters, accents, entities,
 * look-alike letters, leetspeak, words run together) is undone before matching. The words are our reviewed lists in
 * the EU's official languages (policy-terms.ts) and, for English sexual slang, the maintained `obscenity` list, whose
 * matcher also reads its own variants ("phuck", "seeexxx").
 */
import { DataSet, englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { ACCENTED_TERMS, AGE_UNITS, AGE_WORDS, FILLERS, POLICY_TERMS, type TermTag } from './policy-terms';

export type PolicyCategory = 'sexual-minors' | 'sexual-violence' | 'non-consensual-imagery';
type Tag = TermTag | 'clothing';

/**
 * The terms of obscenity's English list this policy reads as sexual. Words that are also ordinary English (cock, tit,
 * dick, cum, hooker: a rooster, a bird, a name, cum laude, a rugby position) are left out: beside a child they would
 * refuse innocent prompts. The rest of that list (slurs, swearing) is not this policy's business.
 */
const LIBRARY_SEXUAL = new Set([
  'anal', 'blowjob', 'boob', 'buttplug', 'deepthroat', 'dildo', 'doggystyle', 'double penetration', 'ejaculate', 'felch', 'fellatio',
  'finger bang', 'fisting', 'fuck', 'gangbang', 'handjob', 'hentai', 'jerk off', 'jizz', 'masturbate', 'orgasm', 'orgy', 'penis', 'porn',
  'pussy', 'semen', 'sex', 'slut', 'twat', 'vagina', 'wank', 'whore',
]);
const LIBRARY_VIOLENCE = new Set(['rape', 'bestiality', 'incest']);
/** In a negative prompt beside a minor in the prompt: asking the model to leave clothes out. */
const CLOTHING = ['clothes', 'clothing', 'clothed', 'dressed', 'shirt', 'pants', 'underwear', 'swimsuit', 'modest'];

// ---- Reading the text as the model reads it ---------------------------------------------------------------------

/** Letters of other scripts (and symbols) that look like Latin ones: "сһіld" in Cyrillic reads as "child". */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ԛ: 'q', ԝ: 'w', ӏ: 'l',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w',
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ʏ: 'y', ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', þ: 'th', ð: 'd',
};
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };

/** Accents and other combining marks folded away, after compatibility forms (full-width, styled letters) are read as letters. */
function fold(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '') // zero-width spaces and joiners, soft hyphens, bidi marks, fillers
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ς/g, 'σ');
}

/** HTML entities decoded, twice over for a doubly-escaped one ("&amp;#110;"). */
/**
 * HTML's character references, decoded by hand: a maintained decoder (`entities`) carries the whole HTML5 table (about
 * 40 kB), which took every generation bundle past its 500 kB budget. What a prompt can hide behind is decoded: every
 * numeric reference (decimal and hex, with or without the semicolon, as browsers read them), the named ones for
 * markup, spaces and invisible characters, and the Latin-1 letters with an accent, a ligature or a stroke (the
 * accent itself is folded away later anyway).
 */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ', shy: '\u00ad', zwj: '\u200d',
  zwnj: '\u200c', lrm: '\u200e', rlm: '\u200f', hyphen: '-', dash: '-', ndash: '-', mdash: '-', period: '.', lowbar: '_',
  UnderBar: '_', colon: ':', comma: ',', excl: '!', quest: '?', sol: '/', bsol: '\\', num: '#', dollar: '$', percnt: '%',
  ast: '*', plus: '+', equals: '=', commat: '@', middot: '\u00b7', centerdot: '\u00b7', bull: '\u2022', NewLine: '\n', Tab: '\t',
  szlig: 'ss', aelig: 'ae', AElig: 'AE', oelig: 'oe', OElig: 'OE', eth: 'd', ETH: 'D', thorn: 'th', THORN: 'TH',
  oslash: 'o', Oslash: 'O', ccedil: 'c', Ccedil: 'C', ntilde: 'n', Ntilde: 'N', aring: 'a', Aring: 'A',
};
const ACCENTED_NAME = /^([aeiouyAEIOUY])(acute|grave|circ|uml|tilde|ring|macr|breve|ogon)$/;
const REFERENCE = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?/g;

function decodeReference(whole: string, ref: string): string {
  if (ref.startsWith('#')) {
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  }
  const named = NAMED[ref] ?? ACCENTED_NAME.exec(ref)?.[1];
  return named ?? whole;
}

function decoded(text: string): string {
  let out = text;
  // References inside references (&amp;#115;) are read as far as a browser rendering it twice would.
  for (let i = 0; i < 3 && out.includes('&'); i++) {
    const next = out.replace(REFERENCE, decodeReference);
    if (next === out) break;
    out = next;
  }
  return out;
}

const latinized = (word: string) => (/[^a-z0-9]/.test(word) ? [...word].map((c) => HOMOGLYPHS[c] ?? c).join('') : word);
const TRIPLES = /(\p{L})\1{2,}/gu;
const onceEach = (word: string) => word.replace(/(\p{L})\1+/gu, '$1');

/** The ways a token may be read: as written, with look-alike letters as Latin ones, leetspeak read, long repeats shortened. */
function variantsOf(token: string): string[] {
  const out = new Set<string>([token]);
  const latin = latinized(token);
  out.add(latin);
  if (/\d/.test(latin) && /\p{L}/u.test(latin)) {
    const leet = latin.replace(/[0-9]/g, (d) => LEET[d] ?? d);
    out.add(leet);
    out.add(leet.replace(/i/g, (c, i: number) => (latin[i] === '1' ? 'l' : c)));
  }
  // Letters held long ("naaaked", "schoooolgiiirl"): read as any listed word with the same letters once each.
  for (const v of [...out]) {
    if (!/(\p{L})\1\1/u.test(v)) continue;
    out.add(v.replace(TRIPLES, '$1$1'));
    for (const word of BY_LETTERS.get(onceEach(v)) ?? []) out.add(word);
  }
  return [...out];
}

interface ReadPrompt {
  /** Words as written (folded), for ages: "12yo", "10", "year", "old". */
  words: string[];
  /** Words with their accents (NFC): for the few terms whose accents matter. */
  accented: Set<string>;
  /** Words after spaced letters are joined ("s e x y" -> "sexy"), each with its readings. */
  tokens: string[][];
}

/** A prompt as the model reads it: its words, with everything a word list would trip over undone. */
function readPrompt(text: string): ReadPrompt {
  const html = decoded(text);
  const accented = new Set(
    html
      .normalize('NFKC')
      .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
      .normalize('NFC')
      .toLowerCase()
      .split(/[^\p{L}\p{M}\p{N}]+/u),
  );
  const folded = fold(html)
    .replace(/(?<=\p{L})[@]|[@](?=\p{L})/gu, 'a')
    .replace(/(?<=\p{L})[$]|[$](?=\p{L})/gu, 's')
    .replace(/(?<=\p{L})!(?=\p{L})/gu, 'i');
  const words = folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  // Letters set apart by spaces, dots, hyphens or underscores ("n u d e", "n.u.d.e"): a run of three or more single
  // characters is read as one word.
  const joined: string[] = [];
  let run = '';
  const flush = () => {
    if (run.length >= 3) joined.push(run);
    else joined.push(...run);
    run = '';
  };
  for (const w of words) {
    if ([...w].length === 1) run += w;
    else {
      flush();
      joined.push(w);
    }
  }
  flush();
  return { words, accented, tokens: joined.map(variantsOf) };
}

// ---- The terms --------------------------------------------------------------------------------------------------

interface Term {
  words: string[];
  tag: Tag;
}
/** Each term under its first word; a word of five letters or more also matches inflected (up to three letters more). */
const BY_FIRST = new Map<string, Term[]>();
/** Every word of a term, and the fillers: what a no-space token is split into. */
const DICTIONARY = new Set<string>(FILLERS);
/** Each listed word under its letters once each ("schoolgirl" under "scholgirl"). */
const BY_LETTERS = new Map<string, string[]>();
function addWord(w: string) {
  const same = BY_LETTERS.get(onceEach(w)) ?? [];
  if (!same.includes(w)) BY_LETTERS.set(onceEach(w), [...same, w]);
  DICTIONARY.add(w);
}
for (const w of FILLERS) addWord(w);
let longestWord = 0;

function addTerm(text: string, tag: Tag) {
  const words = fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const first = words[0];
  if (first === undefined) return;
  const list = BY_FIRST.get(first) ?? [];
  list.push({ words, tag });
  BY_FIRST.set(first, list);
  for (const w of words) {
    addWord(w);
    longestWord = Math.max(longestWord, w.length);
  }
}
for (const lang of Object.values(POLICY_TERMS)) {
  for (const t of lang.minor) addTerm(t, 'minor');
  for (const t of lang.sexual) addTerm(t, 'sexual');
  for (const t of lang.sexualMinors) addTerm(t, 'sexual-minors');
  for (const t of lang.violence) addTerm(t, 'sexual-violence');
  for (const t of lang.nonConsensual) addTerm(t, 'non-consensual-imagery');
}
for (const t of LIBRARY_SEXUAL) addTerm(t, 'sexual');
for (const t of LIBRARY_VIOLENCE) addTerm(t, 'sexual-violence');
for (const t of CLOTHING) addTerm(t, 'clothing');

const MIN_INFLECTED = 5;
const MAX_ENDING = 3;
const wordMatches = (variants: readonly string[], word: string) =>
  variants.some((v) => v === word || (word.length >= MIN_INFLECTED && v.length - word.length <= MAX_ENDING && v.startsWith(word)));

/** The terms that start at token i, with how many tokens each covers. */
function termsAt(tokens: readonly string[][], i: number, found: (t: Term, whole: boolean) => void) {
  const seen = new Set<Term>();
  for (const v of tokens[i] ?? []) {
    for (let k = v.length; k === v.length || k >= Math.max(MIN_INFLECTED, v.length - MAX_ENDING); k--) {
      for (const term of BY_FIRST.get(v.slice(0, k)) ?? []) {
        if (seen.has(term)) continue;
        if (term.words.every((w, j) => wordMatches(tokens[i + j] ?? [], w))) {
          seen.add(term);
          found(term, k === v.length);
        }
      }
    }
  }
}

/**
 * A token with no term of its own that splits wholly into listed words ("nudechild", "undressherphoto"): its pieces,
 * if they carry terms enough not to be an ordinary word that happens to hold one ("therapist" is "the" + "rapist":
 * one term in two pieces, not read). Longest pieces first; tokens are bounded, so this stays linear in the prompt.
 */
function splitRunTogether(word: string): string[] | undefined {
  if (word.length < 6 || word.length > 80) return undefined;
  const pieces: Array<string[] | undefined> = [[]];
  for (let end = 1; end <= word.length; end++) {
    for (let start = Math.max(0, end - longestWord); start < end; start++) {
      const before = pieces[start];
      if (!before || !DICTIONARY.has(word.slice(start, end))) continue;
      if (!pieces[end] || before.length + 1 < pieces[end]!.length) pieces[end] = [...before, word.slice(start, end)];
    }
  }
  const split = pieces[word.length];
  return split && split.length >= 2 ? split : undefined;
}

function tagsOf(text: string): { tags: Set<Tag>; words: string[] } {
  const { words, accented, tokens } = readPrompt(text);
  const tags = new Set<Tag>();
  for (const [term, tag] of ACCENTED_TERMS) if (accented.has(term)) tags.add(tag);
  for (let i = 0; i < tokens.length; i++) {
    let whole = false;
    termsAt(tokens, i, (t, exact) => {
      tags.add(t.tag);
      whole ||= exact;
    });
    // A word read whole is that word; one matched only by its start may be words run together ("undressher").
    if (whole) continue;
    for (const v of tokens[i] ?? []) {
      const split = splitRunTogether(v);
      if (!split) continue;
      const pieces = split.map((p) => [p]);
      const local: Term[] = [];
      const covered = new Set<number>();
      for (let j = 0; j < pieces.length; j++)
        termsAt(pieces, j, (t) => {
          local.push(t);
          for (let k = 0; k < t.words.length; k++) covered.add(j + k);
        });
      // A term forbidden on its own beside a longer filler ("loliconartwork") counts; "the" + "rapist" does not.
      const alone = local.some((t) => t.tag !== 'sexual' && t.tag !== 'minor' && t.tag !== 'clothing');
      const rest = split.filter((_, j) => !covered.has(j)).join('').length;
      if (covered.size >= 2 || (pieces.length >= 3 && covered.size >= 1) || (alone && rest >= 4)) {
        for (const t of local) tags.add(t.tag);
        break;
      }
    }
  }
  // obscenity's English list, with its own variants, over the words as read.
  const read = tokens.map((t) => latinized(t[0] ?? '')).join(' ');
  for (const m of libraryMatcher.getAllMatches(read)) {
    const word = library.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '';
    if (LIBRARY_SEXUAL.has(word)) tags.add('sexual');
    else if (LIBRARY_VIOLENCE.has(word)) tags.add('sexual-violence');
  }
  return { tags, words };
}

const library = new DataSet<{ originalWord?: string }>()
  .addAll(englishDataset)
  .removePhrasesIf((p) => !LIBRARY_SEXUAL.has(p.metadata?.originalWord ?? '') && !LIBRARY_VIOLENCE.has(p.metadata?.originalWord ?? ''));
const libraryMatcher = new RegExpMatcher({ ...library.build(), ...englishRecommendedTransformers });

// ---- Ages -------------------------------------------------------------------------------------------------------

const UNITS = new Set(AGE_UNITS.map(fold));
const NUMBER_WORDS = new Map(AGE_WORDS.map((w, i) => [w, i + 1]));
const ageOf = (word: string) => NUMBER_WORDS.get(word) ?? (/^\d{1,2}$/.test(word) ? Number(word) : undefined);
const MINOR_AGE_WORD = /^(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)(?:yo|yr|yrs|y|years?|yearold|yearolds)(?:old)?$/;

/** An age under 18 ("a 12 year old", "twelve-year-old", "15yo", "aged 9", "12 ans", "16-jährige", "17 éves"). */
function hasMinorAge(words: readonly string[]): boolean {
  for (const [i, w] of words.entries()) {
    const glued = MINOR_AGE_WORD.exec(w);
    if (glued && (ageOf(glued[1] ?? '') ?? 99) < 18) return true;
    const age = ageOf(w);
    if (age === undefined || age < 1 || age >= 18) continue;
    const next = words[i + 1] ?? '';
    if (UNITS.has(next) || (next === 'y' && words[i + 2] === 'o')) return true;
    if (/^(aged?|agee|alter|ages)$/.test(words[i - 1] ?? '')) return true;
  }
  return false;
}

// ---- The rules --------------------------------------------------------------------------------------------------

/** A category forbidden by the words alone, in a prompt or a negative prompt. */
function standalone(tags: ReadonlySet<Tag>): PolicyCategory | undefined {
  for (const c of ['sexual-minors', 'sexual-violence', 'non-consensual-imagery'] as const) if (tags.has(c)) return c;
  return undefined;
}

export interface PromptContext {
  /** The prompt is said of a picture the caller gave (an upload, or one of their results): an edit, an image-to-image or image-to-video. */
  onPicture?: boolean;
}

/**
 * The category the request breaks, if any. The sexual-with-a-minor combination is judged in the prompt (with a
 * negative prompt that asks the model to leave clothes out); a negative prompt alone that lists both ("nude, child")
 * is how careful users steer away from them, so it is refused only for the terms forbidden on their own. A prompt on
 * a picture the caller gave may not make anyone in it nude or sexual: we cannot know the person consented (the
 * "undress" apps), so any sexual or undressing term there is non-consensual imagery.
 */
export function promptPolicyBreach(prompt: string, negativePrompt = '', context: PromptContext = {}): PolicyCategory | undefined {
  const { tags, words } = tagsOf(prompt);
  const negative = negativePrompt ? tagsOf(negativePrompt).tags : new Set<Tag>();
  const found = standalone(tags) ?? standalone(negative);
  if (found) return found;
  const minor = tags.has('minor') || hasMinorAge(words);
  if (minor && (tags.has('sexual') || negative.has('clothing'))) return 'sexual-minors';
  if (context.onPicture && tags.has('sexual')) return 'non-consensual-imagery';
  return undefined;
}
