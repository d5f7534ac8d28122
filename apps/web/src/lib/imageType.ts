/**
 * What a picked file really is, read from its bytes rather than its name (issue 13 §3.5): a file
 * named `.png` that is not a picture is refused when it is picked, not at upload.
 */
export type PictureType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/bmp';

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) =>
  bytes.every((b, i) => head[at + i] === b);

/** The picture type its first bytes announce (the formats' signatures), or null. */
export function pictureTypeOf(head: Uint8Array): PictureType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // GIF87a / GIF89a
  if (
    startsWith(head, [0x47, 0x49, 0x46, 0x38]) &&
    (head[4] === 0x37 || head[4] === 0x39) &&
    head[5] === 0x61
  )
    return 'image/gif';
  // BM, then a header size the format knows (BITMAPCOREHEADER … BITMAPV5HEADER) at offset 14
  if (startsWith(head, [0x42, 0x4d]) && [12, 40, 52, 56, 64, 108, 124].includes(head[14] ?? 0))
    return 'image/bmp';
  return null;
}

function readHead(file: Blob, n: number): Promise<Uint8Array> {
  const part = file.slice(0, n);
  if (typeof part.arrayBuffer === 'function') return part.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(part);
  });
}

/** Whether the browser can decode the file as a picture (true where it has no decoder to ask). */
async function decodes(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true;
  try {
    const bitmap = await createImageBitmap(file);
    const ok = bitmap.width > 0 && bitmap.height > 0;
    bitmap.close();
    return ok;
  } catch {
    return false;
  }
}

/**
 * The picture type of a picked file when its bytes are one of `accepted` and the browser decodes it;
 * null otherwise (another kind of file under a picture's name, or a damaged picture).
 */
export async function checkPicture(
  file: Blob,
  accepted: readonly string[],
  decode: (file: Blob) => Promise<boolean> = decodes,
): Promise<PictureType | null> {
  let type: PictureType | null;
  try {
    type = pictureTypeOf(await readHead(file, 16));
  } catch {
    return null;
  }
  if (!type || !accepted.includes(type)) return null;
  return (await decode(file)) ? type : null;
}
