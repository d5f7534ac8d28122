import { describe, expect, it } from 'vitest';
import { isTooLarge, mediaKind, mediaUrls, planImage, prepareImage } from './image';

const file = (size: number, type: string, name = 'photo.png') =>
  new File([new Uint8Array(size)], name, { type });

describe('image upload rules (spec 000 §5)', () => {
  it('sends GIFs and files under 300 KB unchanged', () => {
    expect(planImage(307_199, 'image/png')).toEqual({ kind: 'asIs' });
    expect(planImage(5_000_000, 'image/gif')).toEqual({ kind: 'asIs' });
  });
  it('compresses larger files at (3072000 / size) / 10, at least 0.1', () => {
    expect(planImage(307_200, 'image/jpeg')).toEqual({ kind: 'compress', quality: 1 });
    expect(planImage(409_600, 'image/jpeg')).toEqual({ kind: 'compress', quality: 0.75 });
    expect(planImage(3_072_000, 'image/png')).toEqual({ kind: 'compress', quality: 0.1 });
    expect(planImage(10_000_000, 'image/png')).toEqual({ kind: 'compress', quality: 0.1 });
  });
  it('is too large over 2 MB', () => {
    expect(isTooLarge(2_097_152)).toBe(false);
    expect(isTooLarge(2_097_153)).toBe(true);
  });

  it('prepares a small picture as it is', async () => {
    const f = file(1000, 'image/png');
    const r = await prepareImage(f, () => Promise.reject(new Error('not called')));
    expect(r).toEqual({ kind: 'ok', blob: f, type: 'image/png', name: 'photo.png' });
  });
  it('refuses a GIF over 2 MB (sent unchanged, so still too large)', async () => {
    expect(await prepareImage(file(2_200_000, 'image/gif', 'a.gif'))).toEqual({ kind: 'tooLarge' });
  });
  it('compresses a large picture to JPEG with the quality of the rule', async () => {
    const qualities: number[] = [];
    const r = await prepareImage(file(614_400, 'image/png', 'shot.png'), async (_b, q) => {
      qualities.push(q);
      return new Blob([new Uint8Array(50_000)], { type: 'image/jpeg' });
    });
    expect(qualities).toEqual([0.5]);
    expect(r).toMatchObject({ kind: 'ok', type: 'image/jpeg', name: 'shot.jpg' });
  });
  it('reports a compressed result over 2 MB as too large', async () => {
    const r = await prepareImage(
      file(9_000_000, 'image/jpeg'),
      async () => new Blob([new Uint8Array(2_100_000)]),
    );
    expect(r).toEqual({ kind: 'tooLarge' });
  });
  it('reports a failed compression', async () => {
    expect(await prepareImage(file(900_000, 'image/bmp'), () => Promise.reject(new Error('decode')))).toEqual(
      { kind: 'failed' },
    );
  });
});

describe('media display', () => {
  it('splits the media list', () => {
    expect(mediaUrls('/media/a, /media/b,')).toEqual(['/media/a', '/media/b']);
    expect(mediaUrls('')).toEqual([]);
  });
  it('shows the spec image extensions and our MMS files as pictures, voice as audio, the rest as fallback', () => {
    expect(mediaKind('https://cdn.example.com/x/photo.JPE?sig=1', 'mms')).toBe('image');
    expect(mediaKind('/media/AbCdEf123456', 'mms')).toBe('image');
    expect(mediaKind('/media/AbCdEf123456', 'voicemail')).toBe('audio');
    expect(mediaKind('https://x.example/v.mp3', 'sms')).toBe('audio');
    expect(mediaKind('https://x.example/doc.pdf', 'mms')).toBe('other');
    expect(mediaKind('https://x.example/card.vcf', 'mms')).toBe('other');
  });
});
