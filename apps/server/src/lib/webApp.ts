import { lazy } from './lazy';
import type { Brand } from '@numa/contract';
import { fill, serverTexts } from './texts';

/*
 * The installable app (issue 23 §1): each brand's web app manifest and icons, made from the brand
 * table and served by the host's brand like the page itself (plugins/web.ts).
 */

/** The icon sizes browsers ask for: 192 and 512 (Chromium's install criteria), 180 for iOS's home screen. */
export const iconSizes = [180, 192, 512] as const;
export type IconSize = (typeof iconSizes)[number];

/** The mark of the favicon (apps/web/public/favicon.svg), on a 64-unit square. */
const mark = 'M18 46V18h6l16 18V18h6v28h-6L24 28v18z';

/**
 * A brand's icon as PNG: the mark in `onPrimary` on the brand's primary colour. `maskable`: the
 * square is filled edge to edge and the mark kept inside the 80 % safe zone (systems cut their own
 * shape); otherwise rounded corners as the favicon has.
 */
export function drawIcon(brand: Brand, size: number, maskable: boolean): Buffer {
  const { createCanvas, Path2D } = lazy.canvas();
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = brand.colors.primary;
  if (maskable) ctx.fillRect(0, 0, size, size);
  else {
    ctx.beginPath();
    ctx.roundRect(0, 0, size, size, (size * 14) / 64);
    ctx.fill();
  }
  // the mark spans 28 of 64 units: the same inside the maskable safe zone (40 % radius)
  const scale = (size / 64) * (maskable ? 0.8 : 1);
  const offset = (size - 64 * scale) / 2;
  ctx.setTransform(scale, 0, 0, scale, offset, offset);
  ctx.fillStyle = brand.colors.onPrimary;
  ctx.fill(new Path2D(mark));
  return canvas.toBuffer('image/png');
}

/** The language a brand's manifest is written in: its forced one, else English. */
export const manifestLang = (brand: Brand) => brand.defaultLocale ?? 'en';

/**
 * The brand's web app manifest (W3C Web App Manifest): name, colours and language from the brand
 * table, standalone, starting at `/` (the page routes a signed-in user to the first tab). The plans
 * page and /pay/* are outside the app's service worker (apps/web/sw/sw.ts), not its scope.
 */
export function webManifest(brand: Brand) {
  const lang = manifestLang(brand);
  const name = brand.name[lang];
  return {
    id: '/',
    name,
    short_name: name.length <= 12 ? name : name.slice(0, 12),
    description: fill(serverTexts[lang].web.manifestDescription, { name }),
    lang: lang === 'zh' ? 'zh-CN' : 'en',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: brand.colors.primary,
    background_color: '#ffffff',
    categories: ['communication', 'productivity'],
    icons: [
      ...([192, 512] as const).map((s) => ({
        src: `/app-icon-${s}.png`,
        sizes: `${s}x${s}`,
        type: 'image/png',
        purpose: 'any',
      })),
      { src: '/app-icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
