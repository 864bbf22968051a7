/**
 * Everything the video pages show about prices comes from the contract's catalog (priceVideo), the same function
 * the server charges with: the UI never keeps its own price table.
 */
import { PIXVERSE, priceVideo, wanModelFor, type PixverseQuality, type VideoFamily, type VideoPriceResult } from '../../../../contract/catalog';

/** The Replicate model a request goes to: Wan image-to-video with a start image, text-to-video without. */
export function modelFor(family: VideoFamily, hasImage: boolean): string {
  return family.id === 'wan' ? wanModelFor(hasImage) : (family.models[0] ?? PIXVERSE);
}

/** The quality a request carries: only families that offer qualities send one. */
export function qualityFor(family: VideoFamily, quality: PixverseQuality | undefined): PixverseQuality | undefined {
  return family.qualities.length > 0 ? quality : undefined;
}

export function priceOf(family: VideoFamily, hasImage: boolean, duration: number, quality: PixverseQuality | undefined): VideoPriceResult {
  return priceVideo(modelFor(family, hasImage), duration, qualityFor(family, quality));
}

/** The cheapest clip of a family, for the chooser ("From 8 credits"). */
export function cheapestPrice(family: VideoFamily): number | undefined {
  let best: number | undefined;
  for (const model of family.models) {
    for (const duration of family.durations) {
      for (const quality of family.qualities.length > 0 ? family.qualities : [undefined]) {
        const price = priceVideo(model, duration, quality);
        if (price.ok && (best === undefined || price.cost < best)) best = price.cost;
      }
    }
  }
  return best;
}

export function creditsLabel(cost: number): string {
  return `${cost} ${cost === 1 ? 'credit' : 'credits'}`;
}

/** "Generate Video (8 Credits)". */
export function generateVideoLabel(cost: number | undefined): string {
  if (cost === undefined) return 'Generate Video';
  return `Generate Video (${cost} ${cost === 1 ? 'Credit' : 'Credits'})`;
}
