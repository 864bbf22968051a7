/**
 * Turns a picked image into the PNG the server takes as a start image: at most `maxLongSide` pixels on its long
 * side (models ignore anything larger, and the server refuses it) and within the upload limit. Browser only
 * (canvas); orientation from the photo's EXIF is applied by the decoder.
 */
import { Messages } from '../../../../contract/errors';

export interface PreparedImage {
  blob: Blob;
  width: number;
  height: number;
}

export class UnreadableImage extends Error {
  override name = 'UnreadableImage';
}

interface Decoded {
  source: CanvasImageSource;
  width: number;
  height: number;
  close(): void;
}

async function decode(file: Blob): Promise<Decoded> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
    } catch {
      // Fall back to an <img>, which decodes a few formats createImageBitmap refuses in some browsers.
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    return { source: img, width: img.naturalWidth, height: img.naturalHeight, close: () => undefined };
  } catch {
    throw new UnreadableImage('This image could not be read. Try a PNG, JPEG or WebP file.');
  } finally {
    URL.revokeObjectURL(url);
  }
}

function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new UnreadableImage('This image could not be converted.'))), 'image/png');
  });
}

/** Scales down (never up) to fit `maxLongSide`, and further while the PNG would exceed `maxBytes`. */
export async function toStartImagePng(file: Blob, maxLongSide: number, maxBytes: number): Promise<PreparedImage> {
  const image = await decode(file);
  try {
    if (image.width < 1 || image.height < 1) throw new UnreadableImage('This image is empty.');
    let scale = Math.min(1, maxLongSide / Math.max(image.width, image.height));
    for (let attempt = 0; attempt < 8; attempt++) {
      const width = Math.max(1, Math.floor(image.width * scale));
      const height = Math.max(1, Math.floor(image.height * scale));
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new UnreadableImage('This browser cannot prepare images.');
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(image.source, 0, 0, width, height);
      const blob = await canvasToPng(canvas);
      if (blob.size <= maxBytes) return { blob, width, height };
      // A very detailed photo can exceed the limit as PNG: shrink until it fits.
      scale *= 0.8;
    }
    throw new UnreadableImage(Messages.imageTooLarge);
  } finally {
    image.close();
  }
}
