/**
 * The prompt policy's rules on text (docs/prompt-policy.md): each forbidden category is found, written plainly or
 * disguised, and ordinary prompts (words that merely contain a listed term, a child in an innocent scene, a negative
 * prompt that steers away from nudity) pass.
 */
import { promptPolicyBreach } from '../../lambdas/domain/prompt-policy';

describe('promptPolicyBreach', () => {
  it.each([
    ['a nude child', 'sexual-minors'],
    ['sexy teen in lingerie', 'sexual-minors'],
    ['s3xy t33n', 'sexual-minors'],
    ['a 12 year old, naked', 'sexual-minors'],
    ['15yo girl, erotic pose', 'sexual-minors'],
    ['lolicon artwork', 'sexual-minors'],
    ['a schoolgirl, p0rn style', 'sexual-minors'],
    ['a woman being r4ped', 'sexual-violence'],
    ['sexual assault scene', 'sexual-violence'],
    ['nudify this photo of my neighbour', 'non-consensual-imagery'],
    ['undress her', 'non-consensual-imagery'],
  ])('refuses %p as %s', (prompt, category) => {
    expect(promptPolicyBreach(prompt)).toBe(category);
  });

  it('refuses a minor in the prompt whose negative prompt asks the model to leave clothes out', () => {
    expect(promptPolicyBreach('a child at the beach', 'clothes, swimsuit')).toBe('sexual-minors');
  });

  it('refuses a term forbidden on its own in the negative prompt too', () => {
    expect(promptPolicyBreach('portrait of a woman', 'nudify')).toBe('non-consensual-imagery');
  });

  it.each([
    ['a lighthouse at dusk', ''],
    ['a kid flying a kite in the park', ''],
    ['children playing football, golden hour', 'blurry, low quality'],
    ['a sexy woman in lingerie, studio light', ''],
    ['grape harvest in Sussex', ''],
    ['a therapist and a scraper in a canteen', ''],
    ['poster for a sonata in A minor', ''],
    ['a 30 year old architect', ''],
    // A negative prompt listing both is how careful users keep them out.
    ['portrait of a family', 'nude, nsfw, child, teen'],
  ])('lets %p (negative %p) through', (prompt, negative) => {
    expect(promptPolicyBreach(prompt, negative)).toBeUndefined();
  });
});
