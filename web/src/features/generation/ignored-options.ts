import { choicesOf, resolveOptions, type ModelDef } from '../../../../contract/models';

/**
 * The choice options a model's plan does not read when a start image is given (Wan's aspect ratio: the clip takes
 * the image's shape), found from the registry's own plan: every value of the option plans the same request. The
 * generator disables them with the reason, so the page never offers a choice that changes nothing.
 */
export function optionsIgnoredWithImage(model: ModelDef): string[] {
  if (!model.acceptsStartImage) return [];
  return choicesOf(model)
    .filter(([id, def]) => {
      const planned = new Set(
        def.values.map((v) => {
          const r = resolveOptions(model, { [id]: v }, () => 1);
          return r.ok ? JSON.stringify(model.plan(r.options, '', true)) : `refused ${String(v)}`;
        }),
      );
      return def.values.length > 1 && planned.size === 1;
    })
    .map(([id]) => id);
}

/** What a disabled option says beside it. */
export const IGNORED_WITH_IMAGE = 'A start image sets the shape: the clip keeps the image’s own aspect ratio.';
