import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { lazy } from './lazy';

/**
 * The captcha picture (issue 9, hole 2): a raster image drawn with @napi-rs/canvas (Skia; its binary
 * ships inside its npm package), so nothing in the answer's bytes names a glyph. svg-captcha's SVG
 * paths identified each character to a script that only compared path commands.
 *
 * Every drawing is random: each character its own size, rotation, skew, height and colour, touching
 * or overlapping its neighbours; arcs and curves cross the text in the text's colours; speckles and a
 * wave that bends the whole picture; WebP at a random quality. The same answer drawn twice gives
 * unrelated bytes. The glyphs are svg-captcha's own font (Comismsh, MIT), loaded from its package.
 */
const require = createRequire(import.meta.url);
const family = 'NumaCaptcha';
let fontLoaded = false;
function loadFont() {
  if (fontLoaded) return;
  lazy.canvas().GlobalFonts.registerFromPath(require.resolve('svg-captcha/fonts/Comismsh.ttf'), family);
  fontLoaded = true;
}

/** Characters of an answer: none of the pairs that read alike once bent (0/o, 1/l/i, 9/g, 5/s, 6/b). */
export const captchaAlphabet = 'abcdefhjkmnprtuvwxy234789';
export const captchaLength = 4;
export const captchaSize = { width: 150, height: 50 } as const;
/** Drawn at twice the size it is shown at (sharp on high-density screens). */
const scale = 2;

export function randomCaptchaText(length = captchaLength): string {
  let s = '';
  for (let i = 0; i < length; i++) s += captchaAlphabet[randomInt(captchaAlphabet.length)];
  return s;
}

const rnd = (min: number, max: number) => min + (randomInt(1_000_000) / 1_000_000) * (max - min);
const hsl = (h: number, s: number, l: number, a = 1) =>
  `hsla(${Math.round(h)}, ${Math.round(s)}%, ${Math.round(l)}%, ${a})`;

function noiseCurve(ctx: SKRSContext2D, w: number, h: number, color: string, width: number) {
  ctx.beginPath();
  ctx.moveTo(rnd(0, w * 0.15), rnd(0, h));
  ctx.bezierCurveTo(
    rnd(w * 0.2, w * 0.5),
    rnd(-h * 0.3, h * 1.3),
    rnd(w * 0.5, w * 0.8),
    rnd(-h * 0.3, h * 1.3),
    rnd(w * 0.85, w),
    rnd(0, h),
  );
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}

/** Moves every pixel along two sine waves (rows sideways, columns up and down). */
function wave(data: Uint8ClampedArray, w: number, h: number) {
  const src = new Uint8ClampedArray(data);
  const ax = rnd(2, 5) * scale;
  const ay = rnd(2, 4) * scale;
  const lx = rnd(30, 60) * scale;
  const ly = rnd(40, 90) * scale;
  const px = rnd(0, Math.PI * 2);
  const py = rnd(0, Math.PI * 2);
  for (let y = 0; y < h; y++) {
    const dx = Math.round(ax * Math.sin((2 * Math.PI * y) / lx + px));
    for (let x = 0; x < w; x++) {
      const dy = Math.round(ay * Math.sin((2 * Math.PI * x) / ly + py));
      const sx = Math.min(w - 1, Math.max(0, x + dx));
      const sy = Math.min(h - 1, Math.max(0, y + dy));
      const from = (sy * w + sx) * 4;
      const to = (y * w + x) * 4;
      data[to] = src[from]!;
      data[to + 1] = src[from + 1]!;
      data[to + 2] = src[from + 2]!;
      data[to + 3] = 255;
    }
  }
}

/** Draws `text` as a distorted, noisy raster picture. */
export async function renderCaptcha(
  text: string,
): Promise<{ mime: 'image/webp'; bytes: Buffer; width: number; height: number }> {
  loadFont();
  const w = captchaSize.width * scale;
  const h = captchaSize.height * scale;
  const canvas = lazy.canvas().createCanvas(w, h);
  const ctx = canvas.getContext('2d');

  // background: a light gradient in a random hue, with blotches
  const hue = rnd(0, 360);
  const bg = ctx.createLinearGradient(0, 0, w, h);
  bg.addColorStop(0, hsl(hue, rnd(20, 50), rnd(88, 96)));
  bg.addColorStop(1, hsl(hue + rnd(40, 140), rnd(20, 50), rnd(86, 95)));
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, w, h);
  for (let i = 0; i < 12; i++) {
    ctx.beginPath();
    ctx.arc(rnd(0, w), rnd(0, h), rnd(4, 18) * scale, 0, Math.PI * 2);
    ctx.fillStyle = hsl(rnd(0, 360), rnd(20, 60), rnd(70, 90), rnd(0.2, 0.5));
    ctx.fill();
  }

  const inkHue = () => rnd(0, 360);
  const inks: string[] = [];
  // curves behind the text
  for (let i = 0; i < 2; i++)
    noiseCurve(ctx, w, h, hsl(inkHue(), rnd(30, 60), rnd(55, 70)), rnd(0.8, 1.5) * scale);

  // the characters: each its own size, angle, skew, height, colour; neighbours touch or overlap
  const slot = w / (text.length + 0.9);
  let x = slot * rnd(0.45, 0.7);
  for (const ch of text) {
    const size = rnd(52, 62) * scale;
    const glyph = randomInt(3) === 0 ? ch.toUpperCase() : ch;
    const ink = hsl(inkHue(), rnd(45, 85), rnd(18, 42));
    inks.push(ink);
    ctx.save();
    ctx.translate(x + slot / 2, h / 2 + rnd(-4, 4) * scale);
    ctx.rotate(rnd(-0.35, 0.35));
    ctx.transform(1, rnd(-0.2, 0.2), rnd(-0.3, 0.3), 1, 0, 0);
    ctx.font = `${Math.round(size)}px ${family}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = ink;
    ctx.fillText(glyph, 0, 0);
    // a stroke of the same ink thickens the glyph, so people read it through the curves that cross it
    ctx.lineWidth = rnd(1.2, 2) * scale;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = ink;
    ctx.strokeText(glyph, 0, 0);
    ctx.restore();
    x += slot * rnd(0.78, 1.0);
  }

  // curves and arcs across the text, in the text's own colours
  for (let i = 0; i < 2; i++) noiseCurve(ctx, w, h, inks[randomInt(inks.length)]!, rnd(0.7, 1.1) * scale);
  for (let i = 0; i < 2; i++) {
    ctx.beginPath();
    ctx.arc(rnd(0, w), rnd(0, h), rnd(10, 30) * scale, rnd(0, Math.PI), rnd(Math.PI, Math.PI * 2));
    ctx.strokeStyle = inks[randomInt(inks.length)]!;
    ctx.lineWidth = rnd(0.6, 1) * scale;
    ctx.stroke();
  }

  // a wave through the whole picture, then speckles
  const image = ctx.getImageData(0, 0, w, h);
  wave(image.data, w, h);
  const d = image.data;
  const speckles = Math.round(w * h * rnd(0.015, 0.03));
  for (let i = 0; i < speckles; i++) {
    const p = randomInt(w * h) * 4;
    const v = randomInt(2) === 0 ? randomInt(0, 90) : randomInt(170, 256);
    d[p] = v;
    d[p + 1] = Math.min(255, v + randomInt(0, 40));
    d[p + 2] = Math.min(255, v + randomInt(0, 40));
  }
  ctx.putImageData(image, 0, 0);

  const bytes = await canvas.encode('webp', randomInt(62, 86));
  return { mime: 'image/webp', bytes, width: captchaSize.width, height: captchaSize.height };
}
