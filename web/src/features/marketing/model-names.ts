import { MODEL_VIEWS } from '../../../../contract/models/view';
import type { MediaKind } from '../../../../contract/media-kinds';
import { listOf } from './price-text';

/**
 * Which models the studio runs, named as the registry names them (contract/models/), for the marketing pages that
 * name them (the sign-in panel words its own line from the same views): a page that lists them by hand goes stale the
 * day a model is added.
 */
const available = MODEL_VIEWS.filter((m) => !m.upcoming);
const generators = (kind: MediaKind) => available.filter((m) => m.kind === kind && m.operation === 'generate');

/** "a, b and c" */
const andList = (items: readonly string[]): string => listOf(items).replace(/ or (?=[^,]*$)/, ' and ');

/** "SDXL, FLUX Fast and FLUX 1.1 Pro" */
export const imageModelNames = (): string => andList(generators('image').map((m) => m.name));
/** "Wan 2.1 (480p), Pixverse v4.5 and Kling 2.1" */
export const videoModelNames = (): string => andList(generators('video').map((m) => m.name));
/** Every model that makes something from a prompt: "SDXL, FLUX Fast, ... and Kling 2.1" */
export const generatorNames = (): string => andList([...generators('image'), ...generators('video')].map((m) => m.name));
/** "Edit by prompt, Upscale and Variations": what works on a picture already made. */
export const operationNames = (): string => andList(available.filter((m) => m.operation !== 'generate').map((m) => m.name));
