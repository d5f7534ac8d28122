import { constants } from '@numa/contract';

const rules = constants.chatImage;

export type ImagePlan = { kind: 'asIs' } | { kind: 'compress'; quality: number };

/**
 * What to do with a picked image (spec 000 §5): GIFs and files under 300 KB go unchanged; larger ones
 * are compressed at quality (3072000 / size) / 10, never under 0.1.
 */
export function planImage(size: number, type: string): ImagePlan {
  if (type === 'image/gif' || size < rules.sendAsIsBelow) return { kind: 'asIs' };
  const quality = Math.max(rules.minQuality, Math.min(1, rules.qualityNumerator / size / 10));
  return { kind: 'compress', quality };
}

/** Over 2 MB after compression: the red 'too large' notice instead of a send (spec 000 §5). */
export const isTooLarge = (size: number) => size > rules.maxBytes;

/** The image types the chat input takes (the contract's MMS types; SVG is refused, see decisions). */
export const acceptedImageTypes: readonly string[] = constants.mmsMimeTypes;

const audioExtensions = ['mp3', 'wav', 'ogg', 'amr', 'm4a', 'mp4', 'aac'];

/**
 * How a media URL shows: a picture for the spec's image extensions (spec 000 §5) and for our own
 * extension-less media-store files of an MMS; audio for voice messages; anything else is the
 * fallback text with a link.
 */
export function mediaKind(url: string, messageType: string): 'image' | 'audio' | 'other' {
  const path = url.split(/[?#]/)[0] ?? '';
  const ext = /\.([a-z0-9]+)$/i.exec(path.split('/').pop() ?? '')?.[1]?.toLowerCase();
  if (messageType === 'voicemail' || (ext && audioExtensions.includes(ext))) return 'audio';
  if (ext) return (constants.chatImageExtensions as readonly string[]).includes(ext) ? 'image' : 'other';
  return messageType === 'mms' ? 'image' : 'other';
}

/** The media list of a message: comma-separated URLs (spec 000 §3). */
export const mediaUrls = (media: string) =>
  media
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);

/**
 * Re-encodes an image as JPEG at a quality (white under transparent parts). Rejects when the browser
 * cannot decode it; the caller then shows 'Upload failed'.
 */
export async function compressImage(file: Blob, quality: number): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encoding failed'))), 'image/jpeg', quality),
    );
  } finally {
    bitmap.close();
  }
}

export type PreparedImage =
  { kind: 'ok'; blob: Blob; type: string; name: string } | { kind: 'tooLarge' } | { kind: 'failed' };

/** Applies the image rules to a picked file. */
export async function prepareImage(file: File, compress = compressImage): Promise<PreparedImage> {
  const plan = planImage(file.size, file.type);
  if (plan.kind === 'asIs') {
    if (isTooLarge(file.size)) return { kind: 'tooLarge' };
    return { kind: 'ok', blob: file, type: file.type, name: file.name || 'image' };
  }
  let blob: Blob;
  try {
    blob = await compress(file, plan.quality);
  } catch {
    return { kind: 'failed' };
  }
  if (isTooLarge(blob.size)) return { kind: 'tooLarge' };
  const base = (file.name || 'image').replace(/\.[^.]*$/, '');
  return { kind: 'ok', blob, type: 'image/jpeg', name: `${base}.jpg` };
}
