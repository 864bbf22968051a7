/**
 * What a model's registry entry declares (one file per model or family in contract/models/): its Replicate
 * identity, what it takes, how its options map onto the model's input, its price and its run times. The server
 * validates and prices from it, the web renders each generator from it, the Replicate simulator validates from
 * the schema fixture it names. Nothing here imports more than the media kinds' type, so public pages may use it.
 */
import type { MediaKind } from '../media-kinds';

export type OptionValue = string | number;

/** One of a fixed list of values (aspect ratio, duration, quality, style, image count). */
export interface ChoiceOption {
  kind: 'choice';
  label: string;
  values: readonly OptionValue[];
  default: OptionValue;
  /** Shown under "Advanced" (the simple screen keeps only the rest). */
  advanced: boolean;
  /** How a value reads on screen, when not the value itself. */
  valueLabel?: (v: OptionValue) => string;
  /** A sentence the generator shows under the choice (what the model really takes, where users expect otherwise). */
  note?: string;
}

/** Free text (the negative prompt). */
export interface TextOption {
  kind: 'text';
  label: string;
  maxLength: number;
  advanced: true;
}

/** A whole number the model takes as its seed; random (chosen by the server) when left out. */
export interface SeedOption {
  kind: 'seed';
  label: 'Seed';
  advanced: true;
}

export type OptionDef = ChoiceOption | TextOption | SeedOption;

/** Option values as a request carries them (ids are the API's field names: aspectRatio, seed, ...). */
export type OptionValues = Readonly<Record<string, OptionValue | undefined>>;

/** A request's options once checked: every choice filled with its value or default, the seed always set. */
export type ResolvedOptions = Readonly<Record<string, OptionValue>>;

/** One Replicate model a registry entry runs. */
export interface ReplicateModel {
  /** owner/name */
  id: string;
  /** Community models need their version id; official models run their latest (undefined). */
  version?: string;
  /** The file under contract/models/schemas/ holding the Input schema Replicate publishes for it. */
  schema: string;
}

/** One prediction of a request: which model, and its input without the start image's URL. */
export interface PredictionPlan {
  model: ReplicateModel;
  input: Record<string, unknown>;
  /** Input that depends on the start image's size (e.g. Wan's max_area follows its orientation). */
  inputForImage?: (size: { width: number; height: number }) => Record<string, unknown>;
  /**
   * Further segments of the same clip: each is a prediction started from the previous segment's last frame (sent as
   * its `image`), run one after another; the segments are joined into the job's one video, the repeated boundary
   * frame dropped. `inputForImage` here gets the request's start image size when there is one.
   */
  continuation?: readonly PredictionPlan[];
  /**
   * A batch of images: one prediction per seed, run side by side under the one job and its one charge, each with this
   * input but its own `seed` (`input.seed` is the first). SDXL and FLUX seed one generator for a whole multi-output
   * prediction, so its second image is no seed's own picture; one prediction per image gives every image a seed that
   * makes it again.
   */
  seeds?: readonly number[];
}

/**
 * The pictures a request may carry, each under its name in POST /api/generations' `inputs`: a start frame, an end
 * frame, or the source picture an operation works on (edit, upscale, variations).
 */
export type ImageInputId = 'startImage' | 'endImage' | 'image';

export interface ImageInputDef {
  label: string;
  required: boolean;
  /** `result`: one of the caller's own image results (a media id); `any`: that, or an upload key (POST /api/uploads). */
  from: 'result' | 'any';
  /** The model's input field its URL goes to. */
  field: string;
  /** What the generator says under the picker: what the picture does for this model. */
  hint?: string;
}

/** What a request carries besides its options: whether it takes a prompt, and which pictures. */
export interface ModelInputs {
  prompt: { required: boolean } | undefined;
  images: Readonly<Partial<Record<ImageInputId, ImageInputDef>>>;
}

/** What an entry does: make something new from a prompt, or work on one of the caller's results. */
export type Operation = 'generate' | 'edit' | 'upscale' | 'variations';

export interface ModelDef {
  /** The model's id in the API (POST /api/generations' `model`), the generator's URL segment and the family id. */
  slug: string;
  /**
   * The kind of its output: what that is saved, checked and named as (a PNG, an MP4) is the kind's
   * (contract/media-kinds.ts), and every plan asks the model for that file type.
   */
  kind: MediaKind;
  operation: Operation;
  inputs: ModelInputs;
  /**
   * Variations: the request's source result is run again with its own model, prompt and options and new seeds; the
   * entry's own options (how many) apply on top, and the price is the source model's.
   */
  rerun?: boolean;
  /**
   * Create the prediction with `Prefer: wait` (seconds): a fast model's result comes in the create call's answer, and
   * the webhook is only the fallback.
   */
  waitSeconds?: number;
  name: string;
  /**
   * The model that makes the entry's files, by name, where the entry's own name is an operation's ("Upscale" is made
   * by Real-ESRGAN): a result's label names what made it (contract/ai-label.ts).
   */
  madeWith?: string;
  /** One line: what it is for (the chooser's and the features page's cards, the generator's heading). */
  tagline: string;
  /** What it does well, a sentence each (the features page's card). */
  strengths: readonly string[];
  /** Listed as coming soon: nothing can be ordered. */
  upcoming: boolean;
  /** The Replicate models this entry may run (Wan: text-to-video and image-to-video). */
  models: readonly ReplicateModel[];
  acceptsStartImage: boolean;
  /** Start images are sent as PNG at most this many pixels on the long side (0: none). */
  startImageLongSide: number;
  /** In display order: the API field name of each option, and what it takes. */
  options: Readonly<Record<string, OptionDef>>;
  /** Why these (individually valid) options cannot be ordered together, if they cannot. */
  unavailable?: (o: ResolvedOptions) => string | undefined;
  /** Why these options cannot go with the pictures given (e.g. Kling's end frame only in pro mode), if they cannot. */
  refuseImages?: (o: ResolvedOptions, given: ReadonlySet<ImageInputId>) => string | undefined;
  /**
   * What Replicate charges for one order with these options, in US cents, as the model's page publishes it (rounded up):
   * the plans' margin check (contract/plans.ts) holds every price above it. Absent where no model of its own runs.
   */
  providerCents?: (o: ResolvedOptions) => number;
  /** Credits for a request with these options (only called for an orderable combination). */
  price: (o: ResolvedOptions) => number;
  /**
   * The prediction (or predictions: a batch, a clip's segments) a request runs; `hasImage`: a start (or source) picture
   * is given; `seedChosen`: the caller gave the seed (it was not drawn for them), so the result must be one that seed
   * gives again.
   */
  plan: (o: ResolvedOptions, prompt: string, hasImage: boolean, seedChosen?: boolean) => PredictionPlan;
  /** The options stored with the job and shown with its result. */
  shown: (o: ResolvedOptions) => Record<string, OptionValue>;
  /** Typical run time in seconds, for the progress estimate. */
  typicalSeconds: number;
  /** The longest a prediction may run before the reconciler stops it and refunds the job. */
  maxRunSeconds: number;
  /**
   * A video's length as asked for these (shown) options, which the saved file must have within one frame: its frames
   * (each prediction's, and the whole clip's after a continuation's segments are joined), or its seconds where the
   * model picks its own frame rate.
   */
  videoLength?: (shown: Readonly<Record<string, unknown>>) => { segmentFrames: number; frames: number } | { seconds: number };
}
