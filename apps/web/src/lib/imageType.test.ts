import { describe, expect, it } from 'vitest';
import { checkPicture, pictureTypeOf } from './imageType';

const bytes = (...b: number[]) => new Uint8Array(b);
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0];
const GIF = [...'GIF89a'].map((c) => c.charCodeAt(0));
const BMP = [0x42, 0x4d, 0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0];
const accepted = ['image/png', 'image/jpeg'];
const yes = () => Promise.resolve(true);
const no = () => Promise.resolve(false);

describe('what a picked file is, by its bytes (issue 13 §3.5)', () => {
  it('reads the signatures of the picture formats', () => {
    expect(pictureTypeOf(bytes(...PNG))).toBe('image/png');
    expect(pictureTypeOf(bytes(...JPEG))).toBe('image/jpeg');
    expect(pictureTypeOf(bytes(...GIF))).toBe('image/gif');
    expect(pictureTypeOf(bytes(...BMP))).toBe('image/bmp');
    expect(pictureTypeOf(new TextEncoder().encode('not an image at all'))).toBeNull();
    expect(pictureTypeOf(new TextEncoder().encode('BM is a text too, not a bitmap'))).toBeNull();
    expect(pictureTypeOf(bytes(0x89, 0x50, 0x4e))).toBeNull(); // cut short
    expect(pictureTypeOf(bytes())).toBeNull();
  });

  it('refuses a text file named .png and typed image/png', async () => {
    const fake = new File(['hello, I am a text'], 'photo.png', { type: 'image/png' });
    expect(await checkPicture(fake, accepted, yes)).toBeNull();
  });

  it('takes a picture of an accepted type that decodes, whatever its name says', async () => {
    expect(await checkPicture(new File([bytes(...PNG)], 'a.png', { type: 'image/png' }), accepted, yes)).toBe(
      'image/png',
    );
    // a JPEG named .png is a JPEG
    expect(
      await checkPicture(new File([bytes(...JPEG)], 'b.png', { type: 'image/png' }), accepted, yes),
    ).toBe('image/jpeg');
  });

  it('refuses a picture of a type not accepted here, and one the browser cannot decode', async () => {
    expect(await checkPicture(new File([bytes(...GIF)], 'c.png'), accepted, yes)).toBeNull();
    expect(await checkPicture(new File([bytes(...GIF)], 'c.gif'), [...accepted, 'image/gif'], yes)).toBe(
      'image/gif',
    );
    // the right first bytes, then damage
    expect(await checkPicture(new File([bytes(...PNG)], 'd.png'), accepted, no)).toBeNull();
  });
});
