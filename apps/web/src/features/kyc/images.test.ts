import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkIdentityFile,
  checkIdentityImage,
  compressImage,
  compressionQuality,
  needsCompression,
} from './images';

const MB = 1_048_576;

describe('identity images', () => {
  it('accepts png, jpg and jpeg only', () => {
    expect(checkIdentityImage({ name: 'id.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(checkIdentityImage({ name: 'ID.JPG', type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(checkIdentityImage({ name: 'id.jpeg', type: '', size: 1000 })).toBeNull();
    expect(checkIdentityImage({ name: 'id.gif', type: 'image/gif', size: 1000 })).toBe('unsupported');
    expect(checkIdentityImage({ name: 'id.pdf.png', type: 'application/pdf', size: 1000 })).toBe(
      'unsupported',
    );
    expect(checkIdentityImage({ name: 'id', type: 'image/png', size: 1000 })).toBe('unsupported');
  });
  it('refuses files over 5 MB', () => {
    expect(checkIdentityImage({ name: 'id.png', type: 'image/png', size: 5 * MB })).toBeNull();
    expect(checkIdentityImage({ name: 'id.png', type: 'image/png', size: 5 * MB + 1 })).toBe('tooLarge');
  });
  it('compresses from 1 MB at about 1 MB / size, never under 0.1', () => {
    expect(needsCompression(MB - 1)).toBe(false);
    expect(needsCompression(MB)).toBe(true);
    expect(compressionQuality(MB)).toBe(1);
    expect(compressionQuality(2 * MB)).toBe(0.5);
    expect(compressionQuality(4 * MB)).toBe(0.25);
    expect(compressionQuality(20 * MB)).toBe(0.1);
  });

  afterEach(() => vi.unstubAllGlobals());
  it('keeps small files as they are and falls back to the original when compression fails', async () => {
    const small = new File([new Uint8Array(1000)], 'a.png', { type: 'image/png' });
    expect(await compressImage(small)).toBe(small);
    // jsdom cannot decode images: the failure must hand back the original
    vi.stubGlobal('createImageBitmap', () => Promise.reject(new Error('cannot decode')));
    const big = new File([new Uint8Array(2 * MB)], 'b.jpg', { type: 'image/jpeg' });
    expect(await compressImage(big)).toBe(big);
  });
});

describe('identity files by their bytes (issue 13 §3.5)', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const decodes = () => Promise.resolve(true);
  it('refuses another file under a picture name at once, with the spec text key', async () => {
    const fake = new File(['%PDF-1.7 not a picture'], 'id.png', { type: 'image/png' });
    expect(await checkIdentityFile(fake, decodes)).toBe('unsupported');
  });
  it('takes a real PNG, and still applies the name and size rules first', async () => {
    expect(await checkIdentityFile(new File([png], 'id.png', { type: 'image/png' }), decodes)).toBeNull();
    expect(await checkIdentityFile(new File([png], 'id.gif', { type: 'image/gif' }), decodes)).toBe(
      'unsupported',
    );
    expect(
      await checkIdentityFile(new File([png], 'id.png', { type: 'image/png' }), () => Promise.resolve(false)),
    ).toBe('unsupported');
  });
});
