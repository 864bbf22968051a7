import { MODELS, modelOfReplicate, priceOf } from '../../../../contract/models';
import { AiGeneratedLabel } from '../../components/ai-generated-label';
import { ButtonLink } from '../../components/button-link';
import { ExampleClipPlayer } from './example-clip';
import { EXAMPLES, EXAMPLES_ARE_PLACEHOLDERS, type ExampleClip } from './media';
import { PageIntro, Section } from './page-intro';
import { credits } from './price-text';

function Settings({ example }: { example: ExampleClip }) {
  const model = modelOfReplicate(example.model)!;
  const price = priceOf(model, { duration: example.duration, quality: example.quality });
  const rows: Array<[string, string]> = [
    ['Model', model.name],
    ['Replicate model', example.model],
    ['Mode', example.startImage ? 'Image to video' : 'Text to video'],
    ['Duration', `${example.duration} seconds`],
  ];
  if (example.quality) rows.push(['Quality', example.quality]);
  if (price.ok) rows.push(['Cost', credits(price.cost)]);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-ink-subtle">{term}</dt>
          <dd className="break-all text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Example({ example }: { example: ExampleClip }) {
  return (
    <li className="grid gap-6 rounded-card border border-line bg-surface p-4 sm:p-6 lg:grid-cols-[3fr_2fr]">
      <div className="flex flex-col gap-3">
        <ExampleClipPlayer
          example={example}
          label={example.placeholder ? `${example.title}: placeholder clip (moving shapes, not model output)` : `${example.title}: ${example.prompt}`}
        />
        {example.startImage && (
          <figure className="flex items-center gap-3">
            <img
              src={example.startImage.src}
              alt={example.startImage.alt}
              width={example.startImage.width}
              height={example.startImage.height}
              loading="lazy"
              decoding="async"
              className="h-auto w-32 rounded-control border border-line"
            />
            <figcaption className="flex flex-col gap-1 text-sm text-ink-muted">
              Start image uploaded with the prompt
              {!example.startImage.placeholder && <AiGeneratedLabel modelName={example.startImage.madeWith} madeAt={example.startImage.madeAt} />}
            </figcaption>
          </figure>
        )}
      </div>
      <div className="flex flex-col gap-4">
        <h3 className="text-xl font-semibold text-ink">{example.title}</h3>
        {example.placeholder ? (
          <p className="w-fit rounded-pill border border-line-strong px-3 py-0.5 text-xs font-medium text-ink-muted">Placeholder render</p>
        ) : (
          <AiGeneratedLabel modelName={example.madeWith} madeAt={example.madeAt} />
        )}
        <p className="text-sm text-ink-muted">{example.note}</p>
        <div>
          <p className="text-xs font-semibold tracking-wide text-brand-ink uppercase">Prompt</p>
          <blockquote className="mt-1 font-mono text-sm text-ink">“{example.prompt}”</blockquote>
        </div>
        <Settings example={example} />
      </div>
    </li>
  );
}

export function ExamplePage() {
  // Each model with examples, in the registry's order.
  const groups = MODELS.filter((m) => EXAMPLES.some((e) => e.family === m.slug)).map((family) => ({
    family,
    examples: EXAMPLES.filter((e) => e.family === family.slug),
  }));
  return (
    <>
      <PageIntro
        eyebrow="Examples"
        title="Prompts, settings and results"
        description="Wan 2.1 and Pixverse example clips with the exact prompt, duration, quality and credit cost used for each."
      >
        {EXAMPLES_ARE_PLACEHOLDERS ? (
          <p>
            Each example lists the exact prompt and settings behind it, to use as a starting point. The clips shown here are
            placeholders from our test simulator (moving shapes with the prompt written on them), not what the models make; the
            models&apos; own renders of these prompts will replace them.
          </p>
        ) : (
          <p>
            Each example lists the exact prompt and settings it was made with, so you can try the same request or use it as a
            starting point. Results vary from run to run.
          </p>
        )}
      </PageIntro>
      {groups.map(({ family, examples }) => (
        <Section key={family.slug} id={`examples-${family.slug}`} title={family.name} lead={family.tagline}>
          <ul className="flex flex-col gap-6">
            {examples.map((e) => (
              <Example key={e.id} example={e} />
            ))}
          </ul>
        </Section>
      ))}
      <div className="mx-auto max-w-5xl px-4 pb-16 sm:px-6">
        <ButtonLink to="/generator" size="lg">
          Start Creating
        </ButtonLink>
      </div>
    </>
  );
}

export default ExamplePage;
