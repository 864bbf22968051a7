import * as z from 'zod';
import { MAX_PROMPT_LENGTH, MAX_START_IMAGE_BYTES, START_IMAGE_PURPOSES } from './catalog';
import { CONTACT_LIMITS, ContactMessages } from './contact';
import { Messages } from './errors';
import { MEDIA_KIND_IDS } from './media-kinds';
import { MODELS } from './models';
import { NEGATIVE_PROMPT_MAX, OptionMessages } from './models/options';
import { MAX_COLLECTION_NAME, MAX_SEARCH_LENGTH } from './media-links';

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  checks: z.record(z.string(), z.object({ status: z.enum(['up', 'down']), latencyMs: z.number(), error: z.string().optional() })),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

export const MeResponse = z.object({
  sub: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  createdAt: z.string(),
  credits: z.number().int().nonnegative(),
});
export type MeResponse = z.infer<typeof MeResponse>;


const prompt = (emptyMessage: string) =>
  z
    .string({ error: emptyMessage })
    .trim()
    .min(1, emptyMessage)
    .max(MAX_PROMPT_LENGTH, Messages.promptTooLong(MAX_PROMPT_LENGTH));

/** An uploaded start image, named by the key POST /api/uploads returned. */
const uploadKey = z.string().min(1).max(300).optional();
/** One of the caller's own image results as the start image (Animate), by its media id: no re-upload. */
const startMediaId = z.string({ error: Messages.invalidPathId }).regex(/^[A-Za-z0-9_-]{1,64}$/, Messages.invalidPathId).optional();

export const CreateUploadRequest = z.object({
  contentType: z.string({ error: Messages.invalidImage }).regex(/^image\/[a-z0-9.+-]+$/i, Messages.invalidImage),
  size: z
    .number({ error: Messages.invalidImage })
    .int()
    .positive(Messages.invalidImage)
    .max(MAX_START_IMAGE_BYTES, Messages.imageTooLarge),
  /** What the image is for ('image' by default); the answer's maxLongSide depends on it. */
  purpose: z.enum(START_IMAGE_PURPOSES, { error: `Purpose must be one of ${START_IMAGE_PURPOSES.join(', ')}.` }).optional(),
});
export type CreateUploadRequest = z.infer<typeof CreateUploadRequest>;
export const CreateUploadResponse = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
  maxBytes: z.number(),
  /** The app sends start images as PNG at most this many pixels on the long side. */
  maxLongSide: z.number(),
});
export type CreateUploadResponse = z.infer<typeof CreateUploadResponse>;

/**
 * Generation options as the API takes them: loosely typed here, checked against the chosen model's registry entry
 * (contract/models/) by the server, which names the allowed values when one is refused.
 */
const generationOptions = {
  aspectRatio: z.string({ error: Messages.optionInvalid('aspectRatio') }).max(20, Messages.optionInvalid('aspectRatio')).optional(),
  negativePrompt: z.string({ error: OptionMessages.text('Negative prompt', NEGATIVE_PROMPT_MAX) }).max(NEGATIVE_PROMPT_MAX, OptionMessages.text('Negative prompt', NEGATIVE_PROMPT_MAX)).optional(),
  seed: z.number({ error: OptionMessages.seed }).optional(),
};

/** A body with a field the route does not know is refused (400) with the fields it takes, not silently dropped. */
const strictBody = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? Messages.unknownFields(iss.keys, Object.keys(shape)) : undefined),
  });

export const GenerateImageRequest = strictBody({
  prompt: prompt(Messages.enterPrompt),
  image: uploadKey,
  ...generationOptions,
  /** Images per click, 1 to 4, each charged. */
  count: z.number({ error: Messages.optionInvalid('count') }).optional(),
});
export type GenerateImageRequest = z.infer<typeof GenerateImageRequest>;
export const GenerationResponse = z.object({ predictionId: z.string(), credits: z.number() });
export type GenerationResponse = z.infer<typeof GenerationResponse>;

export const JobStatus = z.enum(['starting', 'processing', 'succeeded', 'failed', 'canceled']);
export const CheckStatusResponse = z.object({
  status: JobStatus,
  imageUrl: z.string().optional(),
  videoUrl: z.string().optional(),
  error: z.string().optional(),
  /** The caller's credit balance now. */
  value: z.number(),
  mediaId: z.string().optional(),
});
export type CheckStatusResponse = z.infer<typeof CheckStatusResponse>;

export const MediaItemView = z.object({
  id: z.string(),
  type: z.enum(MEDIA_KIND_IDS),
  prompt: z.string(),
  model: z.string(),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  createdAt: z.string(),
  /** A presigned URL to show the file. */
  url: z.string(),
  /** A presigned URL that downloads it as {prompt}-{timestamp}.png|.mp4. */
  downloadUrl: z.string(),
  /** Starred by its owner (My Account's Favourites filter). */
  favorite: z.boolean().optional(),
  /** Its public share link (/s/{token}) while it is shared; whether that page shows the prompt. */
  shareUrl: z.string().optional(),
  sharePrompt: z.boolean().optional(),
  /** Videos: a presigned poster frame and the length; both made when the result is saved (absent on older items). */
  posterUrl: z.string().optional(),
  durationSeconds: z.number().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  /** What the job that made it cost, in credits; a several-image job's cost covers its `options.count` images (absent on items saved before it was kept). */
  credits: z.number().optional(),
});
export type MediaItemView = z.infer<typeof MediaItemView>;
/** The model families a result can come from (the gallery's model filter). */
export const MEDIA_MODEL_SLUGS = MODELS.map((m) => m.slug) as [string, ...string[]];

/** GET /api/media's query string. */
export const ListMediaQuery = z.object({
  limit: z.coerce
    .number({ error: Messages.invalidLimit })
    .int(Messages.invalidLimit)
    .min(1, Messages.invalidLimit)
    .max(100, Messages.invalidLimit)
    .default(24),
  /** Only images or only videos; both when left out. */
  type: z.enum(MEDIA_KIND_IDS, { error: 'type must be image or video.' }).optional(),
  /** Only this model family's results (a registry slug: sdxl, wan, pixverse...). */
  model: z.enum(MEDIA_MODEL_SLUGS, { error: Messages.invalidModelFilter(MEDIA_MODEL_SLUGS) }).optional(),
  /** `true`: only the starred ones. */
  favorite: z.enum(['true', 'false'], { error: Messages.invalidFavoriteFilter }).transform((v) => v === 'true').optional(),
  /** Only results whose prompt holds every one of these words (any case and order). */
  q: z.string().trim().max(MAX_SEARCH_LENGTH, Messages.searchTooLong(MAX_SEARCH_LENGTH)).optional(),
  /** Only the items in this collection of the caller's (an unknown id: 404). */
  collection: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, Messages.invalidPathId).optional(),
  /** nextCursor of the previous page. */
  cursor: z.string().optional(),
});
export type ListMediaQuery = z.infer<typeof ListMediaQuery>;
export const ListMediaResponse = z.object({ items: z.array(MediaItemView), nextCursor: z.string().optional() });
export type ListMediaResponse = z.infer<typeof ListMediaResponse>;

/** POST /api/media/{id}/share: private by default, the prompt shown only when the owner says so. */
export const ShareMediaRequest = strictBody({
  showPrompt: z.boolean({ error: Messages.invalidShowPrompt }).optional(),
});
export type ShareMediaRequest = z.infer<typeof ShareMediaRequest>;
export const ShareMediaResponse = z.object({ url: z.string(), showPrompt: z.boolean() });
export type ShareMediaResponse = z.infer<typeof ShareMediaResponse>;
/** A named collection of the caller's results: a name of 1 to MAX_COLLECTION_NAME characters, at most MAX_COLLECTIONS. */
export const CollectionView = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
export type CollectionView = z.infer<typeof CollectionView>;
/** POST /api/collections and PUT /api/collections/{id}: the (new) name (two collections may share one). */
export const CollectionNameRequest = strictBody({
  name: z
    .string({ error: Messages.invalidCollectionName(MAX_COLLECTION_NAME) })
    .trim()
    .min(1, Messages.invalidCollectionName(MAX_COLLECTION_NAME))
    .max(MAX_COLLECTION_NAME, Messages.invalidCollectionName(MAX_COLLECTION_NAME)),
});
export type CollectionNameRequest = z.infer<typeof CollectionNameRequest>;
export const ListCollectionsResponse = z.object({ items: z.array(CollectionView) });
export type ListCollectionsResponse = z.infer<typeof ListCollectionsResponse>;
/** PUT and DELETE /api/collections/{id}/items/{mediaId} answer the membership's new state. */
export const CollectionItemResponse = z.object({ collectionId: z.string(), mediaId: z.string(), member: z.boolean() });
export type CollectionItemResponse = z.infer<typeof CollectionItemResponse>;
/** PUT and DELETE /api/media/{id}/favorite answer the item's new state. */
export const FavoriteResponse = z.object({ id: z.string(), favorite: z.boolean() });
export type FavoriteResponse = z.infer<typeof FavoriteResponse>;
/**
 * A share link's token: 16 random bytes (128 bits) in base64url. Anything else names no share (the page answers its
 * 404, not a 400: a pasted link that was cut short is simply not found).
 */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{22}$/;
export const ShareParams = z.object({ token: z.string().max(200) });


const filled = (max: number, tooLong: string) => z.string({ error: Messages.fillAllFields }).trim().min(1, Messages.fillAllFields).max(max, tooLong);
export const SendContactRequest = z.object({
  email: filled(CONTACT_LIMITS.email, ContactMessages.emailTooLong).pipe(z.email(Messages.invalidEmail)),
  subject: filled(CONTACT_LIMITS.subject, ContactMessages.subjectTooLong),
  description: filled(CONTACT_LIMITS.description, ContactMessages.descriptionTooLong),
});
export type SendContactRequest = z.infer<typeof SendContactRequest>;

// ---- video generation ----
/**
 * POST /api/generate-video. `model` is the Replicate identifier; which durations and qualities it takes, and
 * what they cost, is the catalog's business (priceVideo), so unknown values get the catalog's reason.
 */
export const GenerateVideoRequest = strictBody({
  prompt: prompt(Messages.promptRequired),
  model: z.string({ error: Messages.chooseVideoModel }).trim().min(1, Messages.chooseVideoModel).max(100, Messages.chooseVideoModel),
  duration: z.number({ error: Messages.videoDurationRequired }).int(Messages.videoDurationRequired).positive(Messages.videoDurationRequired),
  /** The start image's upload key (POST /api/uploads): required for Wan i2v, optional for Pixverse. */
  image: uploadKey,
  /** Instead of `image`: one of the caller's image results (GET /api/media) as the start image. */
  startMediaId,
  /** Pixverse only: 540p, 720p (default) or 1080p. */
  quality: z.string({ error: Messages.videoQualityInvalid }).max(20, Messages.videoQualityInvalid).optional(),
  ...generationOptions,
  /** Pixverse only: a style preset. */
  style: z.string({ error: Messages.optionInvalid('style') }).max(40, Messages.optionInvalid('style')).optional(),
});
export type GenerateVideoRequest = z.infer<typeof GenerateVideoRequest>;

// ---- one generation pipeline ----
/** A picture a request names: one of the caller's results (media id) or an upload (its key); the model says which it takes. */
const imageRefOf = (input: string) =>
  z.string({ error: Messages.imageInputInvalid(input) }).regex(/^[A-Za-z0-9_./-]{1,300}$/, Messages.imageInputInvalid(input)).optional();

/** POST /api/generations: any model or operation of GET /api/models, its options checked against its registry entry. */
export const GenerationsRequest = strictBody({
  model: z.string({ error: Messages.chooseModel }).trim().min(1, Messages.chooseModel).max(100, Messages.chooseModel),
  prompt: z.string({ error: Messages.promptRequired }).trim().max(MAX_PROMPT_LENGTH, Messages.promptTooLong(MAX_PROMPT_LENGTH)).optional(),
  options: z
    .record(
      z.string().max(40),
      z.union([z.string().max(NEGATIVE_PROMPT_MAX, OptionMessages.text('An option', NEGATIVE_PROMPT_MAX)), z.number()], { error: 'Each option is text or a number.' }),
      { error: 'options must be an object of option values.' },
    )
    .optional(),
  inputs: z
    .strictObject(
      { startImage: imageRefOf('startImage'), endImage: imageRefOf('endImage'), image: imageRefOf('image') },
      { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown input${iss.keys.length > 1 ? 's' : ''}: ${iss.keys.join(', ')}. Inputs: startImage, endImage, image.` : 'inputs must be an object.') },
    )
    .optional(),
});
export type GenerationsRequest = z.infer<typeof GenerationsRequest>;

const OptionValue = z.union([z.string(), z.number()]);
const PriceAxis = z.object({ id: z.string(), label: z.string(), values: z.array(z.object({ value: OptionValue, label: z.string() })) });
export const ModelsResponse = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      tagline: z.string(),
      strengths: z.array(z.string()).readonly(),
      kind: z.enum(MEDIA_KIND_IDS),
      operation: z.enum(['generate', 'edit', 'upscale', 'variations']),
      upcoming: z.boolean(),
      inputs: z.object({
        prompt: z.object({ required: z.boolean() }).nullable(),
        images: z.array(z.object({ id: z.enum(['startImage', 'endImage', 'image']), label: z.string(), required: z.boolean(), from: z.enum(['result', 'any']), hint: z.string().optional() })),
      }),
      options: z.array(
        z.object({
          id: z.string(),
          kind: z.enum(['choice', 'text', 'seed']),
          label: z.string(),
          advanced: z.boolean(),
          values: z.array(OptionValue).readonly().optional(),
          valueLabels: z.record(z.string(), z.string()).optional(),
          default: OptionValue.optional(),
          maxLength: z.number().optional(),
          note: z.string().optional(),
        }),
      ),
      price: z.number().nullable(),
      prices: z.object({ rows: PriceAxis.nullable(), columns: PriceAxis.nullable(), costs: z.array(z.array(z.number().nullable())) }).nullable(),
      typicalSeconds: z.number(),
      runsOn: z.array(z.string()),
    }),
  ),
});
export type ModelsResponse = z.infer<typeof ModelsResponse>;

// ---- the queue ----
/** POST /api/jobs/{id}/cancel. `acceptCharge`: the caller was told a running job's credits are spent and agreed. */
export const CancelJobRequest = strictBody({
  acceptCharge: z.boolean({ error: 'acceptCharge must be true or false.' }).optional(),
});
export type CancelJobRequest = z.infer<typeof CancelJobRequest>;
export const CancelJobResponse = z.object({
  status: z.literal('canceled'),
  /** Credits given back (the whole cost while the job was still starting, else 0). */
  refunded: z.number().int().nonnegative(),
  /** The caller's balance now. */
  credits: z.number(),
  /** What the job's row says now. */
  error: z.string(),
});
export type CancelJobResponse = z.infer<typeof CancelJobResponse>;

