/**
 * The prompt policy (docs/prompt-policy.md) as rules on text: which forbidden category, if any, a prompt or a negative
 * prompt asks for. Matching is obscenity's (confusable letters, leetspeak, repeated letters and word boundaries: "s3x",
 * "k1ds" and "seeexxx" match, "Sussex" and "canteen" do not), and its English list supplies the sexual terms. No
 * maintained list covers minors, sexual violence or "nudify" requests, so those few terms are ours, below.
 */
import { DataSet, englishDataset, englishRecommendedTransformers, parseRawPattern, RegExpMatcher } from 'obscenity';

export type PolicyCategory = 'sexual-minors' | 'sexual-violence' | 'non-consensual-imagery';
/** What a matched term says: a category on its own, or a part of one (sexual and minor together). */
type Tag = 'sexual' | 'minor' | 'clothing' | PolicyCategory;

/**
 * The terms of obscenity's English list this policy reads, by group: its sexual terms, and those forbidden on their
 * own. The rest of that list (slurs, swearing) is not this policy's business.
 */
const LIBRARY_TERMS = new Map<string, Tag>([
  ...[
    'anal', 'blowjob', 'boob', 'buttplug', 'cock', 'cum', 'deepthroat', 'dick', 'dildo', 'doggystyle', 'double penetration',
    'ejaculate', 'felch', 'fellatio', 'finger bang', 'fisting', 'fuck', 'gangbang', 'handjob', 'hentai', 'hooker', 'jerk off',
    'jizz', 'masturbate', 'orgasm', 'orgy', 'penis', 'porn', 'pussy', 'semen', 'sex', 'slut', 'tit', 'twat', 'vagina', 'wank', 'whore',
  ].map((w): [string, Tag] => [w, 'sexual']),
  ...['rape', 'bestiality', 'incest'].map((w): [string, Tag] => [w, 'sexual-violence']),
]);

/** Sexual terms the library's profanity list lacks because they are not profanity (nudity, erotica). */
const SEXUAL = ['nude', 'nudes', 'nudity', 'naked', 'nsfw', 'erotic', 'erotica', 'sexy', 'topless', 'bottomless', 'lingerie', 'undressed', 'undressing', 'nipple', 'nipples', 'genitals', 'genital', 'explicit', 'seductive', 'xxx', 'stripper', 'striptease', 'lewd', 'fetish'];
/** Words that make a person a minor. */
const MINOR = ['child', 'children', 'kid', 'kids', 'kiddie', 'minor', 'minors', 'underage', 'teen', 'teens', 'teenage', 'teenager', 'preteen', 'tween', 'toddler', 'infant', 'schoolgirl', 'schoolboy', 'little girl', 'little boy', 'young girl', 'young boy', 'juvenile', 'prepubescent', 'pubescent', 'elementary school', 'middle school', 'grade schooler'];
/** Terms that name sexual content with minors by themselves. */
const SEXUAL_MINORS = ['csam', 'child porn', 'childporn', 'jailbait', 'loli', 'lolicon', 'shota', 'shotacon', 'pedo', 'pedophile', 'paedophile', 'pedophilia'];
const SEXUAL_VIOLENCE = ['raped', 'raping', 'rapist', 'sexual assault', 'sexually assaulted', 'molest', 'molested', 'molesting', 'non consensual', 'nonconsensual', 'without consent', 'drugged and', 'zoophilia', 'necrophilia'];
/** Making real people nude without their consent (the "undress" apps). */
const NON_CONSENSUAL = ['nudify', 'nudified', 'deepnude', 'deep nude', 'undress her', 'undress him', 'undress them', 'remove her clothes', 'remove his clothes', 'take off her clothes', 'take off his clothes', 'revenge porn'];
/** In a negative prompt beside a minor in the prompt: asking the model to leave clothes out. */
const CLOTHING = ['clothes', 'clothing', 'clothed', 'dressed', 'shirt', 'pants', 'underwear', 'swimsuit', 'modest'];

/**
 * Our terms as obscenity patterns: the matcher compares text after its transformers, which collapse repeated letters
 * (but keep a double b, e, o, l, s or g), so a pattern must be written as the collapsed text ("little" as "litle").
 */
const KEEP_DOUBLE = new Set(['b', 'e', 'o', 'l', 's', 'g']);
const collapsed = (term: string) => term.toLowerCase().replace(/([a-z])\1+/g, (run, c: string) => (KEEP_DOUBLE.has(c) ? c + c : c));

const ours = new DataSet<{ tag: Tag }>();
for (const [tag, terms] of [['sexual', SEXUAL], ['minor', MINOR], ['clothing', CLOTHING], ['sexual-minors', SEXUAL_MINORS], ['sexual-violence', SEXUAL_VIOLENCE], ['non-consensual-imagery', NON_CONSENSUAL]] as const) {
  for (const term of terms) ours.addPhrase((p) => p.setMetadata({ tag }).addPattern(parseRawPattern(`|${collapsed(term)}|`)));
}
const theirs = new DataSet<{ originalWord?: string }>().addAll(englishDataset).removePhrasesIf((p) => !LIBRARY_TERMS.has(p.metadata?.originalWord ?? ''));
const ourMatcher = new RegExpMatcher({ ...ours.build(), ...englishRecommendedTransformers });
const theirMatcher = new RegExpMatcher({ ...theirs.build(), ...englishRecommendedTransformers });

function tagsOf(text: string): Set<Tag> {
  const tags = new Set<Tag>();
  for (const m of ourMatcher.getAllMatches(text)) {
    const tag = ours.getPayloadWithPhraseMetadata(m).phraseMetadata?.tag;
    if (tag) tags.add(tag);
  }
  for (const m of theirMatcher.getAllMatches(text)) {
    const tag = LIBRARY_TERMS.get(theirs.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '');
    if (tag) tags.add(tag);
  }
  return tags;
}

/** An age under 18 written as a number ("a 12 year old", "15yo", "aged 9"): digits are not words the matcher reads. */
const MINOR_AGE = /\b(?:[1-9]|1[0-7])\s*-?\s*(?:years?|yrs?|y\/?o)\b|\baged?\s+(?:[1-9]|1[0-7])\b/i;

/** A category forbidden by the words alone, in a prompt or a negative prompt. */
function standalone(tags: ReadonlySet<Tag>): PolicyCategory | undefined {
  for (const c of ['sexual-minors', 'sexual-violence', 'non-consensual-imagery'] as const) if (tags.has(c)) return c;
  return undefined;
}

/**
 * The category the request breaks, if any. The sexual-with-a-minor combination is judged in the prompt (with a
 * negative prompt that asks the model to leave clothes out); a negative prompt alone that lists both ("nude, child")
 * is how careful users steer away from them, so it is refused only for the terms forbidden on their own.
 */
export function promptPolicyBreach(prompt: string, negativePrompt = ''): PolicyCategory | undefined {
  const tags = tagsOf(prompt);
  const negative = tagsOf(negativePrompt);
  const found = standalone(tags) ?? standalone(negative);
  if (found) return found;
  const minor = tags.has('minor') || MINOR_AGE.test(prompt);
  if (minor && (tags.has('sexual') || negative.has('clothing'))) return 'sexual-minors';
  return undefined;
}
