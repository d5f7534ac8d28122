import { constants } from '@numa/contract';
import { checkPicture } from '../../lib/imageType';

const rules = constants.identityImage;

/** i18n keys under `kyc.errors`. */
export type ImageProblem = 'unsupported' | 'tooLarge';

/**
 * Identity images (spec 000 §5): png, jpg or jpeg only ('Please upload an image in a supported
 * format.'), at most 5 MB ('The image size must not exceed 5MB.'). The server checks the bytes too.
 */
export function checkIdentityImage(file: { name: string; type: string; size: number }): ImageProblem | null {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  const typeOk = file.type === '' || file.type === 'image/png' || file.type === 'image/jpeg';
  if (!(rules.types as readonly string[]).includes(ext) || !typeOk) return 'unsupported';
  if (file.size > rules.maxBytes) return 'tooLarge';
  return null;
}

/**
 * The whole check of a picked file: its name, type and size as above, then its bytes — a PNG or
 * JPEG the browser can decode — so another file under a picture's name is refused when it is
 * picked, never shown as a broken thumbnail (issue 13 §3.5).
 */
export async function checkIdentityFile(
  file: File,
  decode?: (file: Blob) => Promise<boolean>,
): Promise<ImageProblem | null> {
  const problem = checkIdentityImage(file);
  if (problem) return problem;
  return (await checkPicture(file, ['image/png', 'image/jpeg'], decode)) ? null : 'unsupported';
}

/** Compression quality for a file of `size` bytes: about 1 MB / size, never under 0.1 (spec 000 §5). */
export const compressionQuality = (size: number) =>
  Math.max(rules.minQuality, Math.min(1, rules.compressFrom / size));

/** Whether a file is compressed before it is attached: at or above 1 MB. */
export const needsCompression = (size: number) => size >= rules.compressFrom;

async function decode(
  file: File,
): Promise<{ source: CanvasImageSource; width: number; height: number; done: () => void }> {
  if (typeof createImageBitmap === 'function') {
    const bmp = await createImageBitmap(file);
    return { source: bmp, width: bmp.width, height: bmp.height, done: () => bmp.close() };
  }
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.src = url;
  await img.decode();
  return {
    source: img,
    width: img.naturalWidth,
    height: img.naturalHeight,
    done: () => URL.revokeObjectURL(url),
  };
}

/**
 * Files of 1 MB or more are re-encoded as JPEG through a canvas at the quality above; any failure,
 * or a result no smaller, keeps the original (spec 000 §5, spec 001 §8).
 */
export async function compressImage(file: File): Promise<File> {
  if (!needsCompression(file.size)) return file;
  try {
    const img = await decode(file);
    try {
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d');
      if (!ctx) return file;
      // JPEG has no transparency: paint a white page under a PNG's clear parts
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img.source, 0, 0);
      const blob = await new Promise<Blob | null>((resolve) =>
        canvas.toBlob(resolve, 'image/jpeg', compressionQuality(file.size)),
      );
      if (!blob || blob.size >= file.size) return file;
      const name = file.name.replace(/\.(png|jpe?g)$/i, '') + '.jpg';
      return new File([blob], name, { type: 'image/jpeg', lastModified: file.lastModified });
    } finally {
      img.done();
    }
  } catch {
    return file;
  }
}
