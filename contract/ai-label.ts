/**
 * How a result is labelled wherever it is shown publicly (the share page and its link previews, the viewer, the
 * examples on the marketing pages): said where people look, not only in the file's content credentials.
 */
import type { Operation } from './models/types';

/**
 * "AI-generated with SDXL on 3 Mar 2026"; a result of an operation names the model that made its file and what it
 * did: "Upscaled with Real-ESRGAN on ...", "AI-edited with FLUX.1 Kontext [pro] on ..." (a variation is its model's
 * own generation). `modelName`: the registry's name of what made the file (contract/models `madeWithOf`).
 */
export const aiGeneratedLabel = (modelName: string, madeOn: string, operation: Operation = 'generate') =>
  `${operation === 'upscale' ? 'Upscaled' : operation === 'edit' ? 'AI-edited' : 'AI-generated'} with ${modelName} on ${madeOn}`;
