import type { BrandId, Lang } from './common';

/** Rail tabs (spec 000 §2). `tabAccount` is the account tab's internal name. */
export const railTabs = ['chats', 'verification', 'numbers', 'contacts', 'tabAccount'] as const;
export type RailTab = (typeof railTabs)[number];

/**
 * Account-tab panels (spec 000 §2 Account tab, spec 001 §2), in menu order. Decided (issue 19 §4):
 * the verification-code brand's two panels, which the spec calls numberManagement and
 * subscriptionHistory, are `codeNumbers` and `codeHistory` (the verification numbers kept and their
 * history), so they are not mistaken for the numbers tab's rented numbers; the old names still open
 * them (`legacyAccountPanels`, for links saved before).
 */
export const accountPanels = [
  'profile',
  'rates',
  'credit',
  'paymentHistory',
  'billHistory',
  'sms',
  'call',
  'codeNumbers',
  'codeHistory',
  'invite',
  'redeemCode',
  'notifications',
  'developer',
  'templates',
] as const;
export type AccountPanel = (typeof accountPanels)[number];

/** The spec's names of the panels renamed above, and the panel each now opens. */
export const legacyAccountPanels: Readonly<Record<string, AccountPanel>> = {
  numberManagement: 'codeNumbers',
  subscriptionHistory: 'codeHistory',
};

export interface TopUpPreset {
  /** Amount in the brand's unit. */
  amount: number;
  /** Bonus credited with it (spec 001 §9). */
  bonus: number;
}

export interface Brand {
  id: BrandId;
  name: Record<Lang, string>;
  /**
   * Balance unit: label after the amount, or a symbol before it; `code` is the money it is bought
   * and priced in (top-up product ids `card_web_<code>_10`, rates): one place, never derived from
   * the brand's id (issue 19 §4).
   */
  currency: { code: 'usd' | 'cny'; symbol: string | null; label: Record<Lang, string>; decimals: 2 | 4 };
  /** Locale forced by default (spec: Chinese for two brands); null = `?country=cn`, then the browser. */
  defaultLocale: Lang | null;
  hideLanguageSwitch: boolean;
  hiddenTabs: readonly RailTab[];
  /** Panels of the account tab this brand never shows. */
  hiddenAccountPanels: readonly AccountPanel[];
  vipBadge: boolean;
  bannerAd: boolean;
  /** The app-download dialog: two store QR codes, plus an APK link on one brand. */
  apps: { ios: string; android: string; apk: string | null };
  frontPage: 'default' | 'applist';
  /** Redirect phones and tablets to the mobile site (the main brand only; URL from config). */
  mobileRedirect: boolean;
  supportEmail: string;
  siteUrl: string;
  termsUrl: string;
  privacyUrl: string;
  /** cloudnumber's own purchase-instructions link (spec 001 §2, New number step 2). */
  purchaseInstructionsUrl: string | null;
  /** The brand-specific toll-free registration form (spec 000 §8, 300030). */
  tollFreeFormUrl: string;
  /** Numbers area: first-open tip and help icon (not on wetalk or cloudnumber). */
  numbersTip: boolean;
  topUp: {
    presets: readonly TopUpPreset[];
    custom: { min: number; max: number; default: number };
    /** Index of the preset chosen when the page opens (spec: the fifth item). */
    defaultPresetIndex: number;
    /** Whether bonuses apply when paying by crypto (not on wephone, wetalk, wetalkpro). */
    cryptoBonus: boolean;
    /** Gift shown on the summary for a custom amount: 15% of the total (spec 001 §9). */
    customGiftRate: number;
  };
  /** Colours; all foreground/background pairs meet WCAG AA. */
  colors: BrandColors;
  /**
   * The same colours for the dark theme (issue 22 §5; `palette` below): a lighter primary (links and
   * buttons on the dark surfaces), dark text on it, a dark tint for primarySoft, the same rail. Pairs
   * meet WCAG AA on the dark neutrals of styles.css (test: apps/web/src/theme.test.ts).
   */
  colorsDark: BrandColors;
}

export interface BrandColors {
  primary: string;
  primaryHover: string;
  onPrimary: string;
  primarySoft: string;
  rail: string;
  railText: string;
  railActive: string;
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const dollarPresets: readonly TopUpPreset[] = [
  { amount: 2, bonus: 0 },
  { amount: 5, bonus: 0 },
  { amount: 10, bonus: 1 },
  { amount: 20, bonus: 2 },
  { amount: 50, bonus: 6 },
  { amount: 100, bonus: 13 },
];
const dollar = { code: 'usd', symbol: '$', label: { en: 'Dollars', zh: '美元' }, decimals: 4 } as const;
const dollarTopUp = {
  presets: dollarPresets,
  custom: { min: 11, max: 200, default: 200 },
  defaultPresetIndex: 4,
  cryptoBonus: false,
  customGiftRate: 0.15,
} as const;

const site = (domain: string) => ({
  siteUrl: `https://www.${domain}`,
  termsUrl: `https://www.${domain}/terms`,
  privacyUrl: `https://www.${domain}/privacy`,
  tollFreeFormUrl: `https://www.${domain}/toll-free-registration`,
  supportEmail: `support@${domain}`,
  apps: {
    ios: `https://apps.apple.com/app/${domain.split('.')[0]}`,
    android: `https://play.google.com/store/apps/details?id=${domain.split('.').reverse().join('.')}`,
    apk: null,
  },
});

/**
 * A brand's colours in both themes. The rail is dark in both, so the dark set changes only the
 * primary four: a lighter primary (links and buttons on dark surfaces), dark text on it, a dark tint.
 */
const palette = (
  colors: BrandColors,
  dark: Pick<BrandColors, 'primary' | 'primaryHover' | 'onPrimary' | 'primarySoft'>,
): Pick<Brand, 'colors' | 'colorsDark'> => ({ colors, colorsDark: { ...colors, ...dark } });

export const brands: Record<BrandId, Brand> = {
  numa: {
    id: 'numa',
    name: { en: 'Numa', zh: 'Numa' },
    currency: { code: 'usd', symbol: null, label: { en: 'Coins', zh: '金币' }, decimals: 4 },
    defaultLocale: null,
    hideLanguageSwitch: false,
    hiddenTabs: [],
    hiddenAccountPanels: ['codeNumbers', 'codeHistory'],
    vipBadge: false,
    bannerAd: false,
    frontPage: 'default',
    mobileRedirect: true,
    ...site('numa.app'),
    purchaseInstructionsUrl: null,
    numbersTip: true,
    topUp: {
      presets: dollarPresets.map((p) => ({ amount: p.amount, bonus: 0 })),
      custom: { min: 11, max: 200, default: 200 },
      defaultPresetIndex: 4,
      cryptoBonus: true,
      customGiftRate: 0.15,
    },
    ...palette(
      {
        primary: '#4f46e5',
        primaryHover: '#4338ca',
        onPrimary: '#ffffff',
        primarySoft: '#eef2ff',
        rail: '#1e1b4b',
        railText: '#e0e7ff',
        railActive: '#6366f1',
      },
      {
        primary: '#818cf8',
        primaryHover: '#a5b4fc',
        onPrimary: '#0f0d2e',
        primarySoft: '#25234d',
      },
    ),
  },
  wephone: {
    id: 'wephone',
    name: { en: 'WePhone', zh: 'WePhone' },
    currency: dollar,
    defaultLocale: null,
    hideLanguageSwitch: false,
    hiddenTabs: [],
    hiddenAccountPanels: ['codeNumbers', 'codeHistory'],
    vipBadge: false,
    bannerAd: false,
    frontPage: 'default',
    mobileRedirect: false,
    ...site('wephone.app'),
    purchaseInstructionsUrl: null,
    numbersTip: true,
    topUp: dollarTopUp,
    ...palette(
      {
        primary: '#0060df',
        primaryHover: '#0050bb',
        onPrimary: '#ffffff',
        primarySoft: '#e8f1fd',
        rail: '#0b2545',
        railText: '#dbe8fb',
        railActive: '#2f7cf0',
      },
      {
        primary: '#6aa8ff',
        primaryHover: '#93c0ff',
        onPrimary: '#04152d',
        primarySoft: '#132840',
      },
    ),
  },
  wetalk: {
    id: 'wetalk',
    name: { en: 'WeTalk', zh: 'WeTalk' },
    currency: dollar,
    defaultLocale: null,
    hideLanguageSwitch: false,
    hiddenTabs: [],
    hiddenAccountPanels: ['codeNumbers', 'codeHistory'],
    vipBadge: true,
    bannerAd: true,
    frontPage: 'default',
    mobileRedirect: false,
    ...site('wetalk.app'),
    purchaseInstructionsUrl: null,
    numbersTip: false,
    topUp: dollarTopUp,
    ...palette(
      {
        primary: '#00804f',
        primaryHover: '#006b42',
        onPrimary: '#ffffff',
        primarySoft: '#ecf8f2',
        rail: '#0e3b2e',
        railText: '#d7f2e6',
        railActive: '#1fa371',
      },
      {
        primary: '#3ccf91',
        primaryHover: '#6ee0ad',
        onPrimary: '#03261a',
        primarySoft: '#0f2e23',
      },
    ),
  },
  wetalkpro: {
    id: 'wetalkpro',
    name: { en: 'WeTalk Pro', zh: 'WeTalk Pro' },
    currency: dollar,
    defaultLocale: null,
    hideLanguageSwitch: false,
    hiddenTabs: ['verification'],
    hiddenAccountPanels: ['codeNumbers', 'codeHistory'],
    vipBadge: false,
    bannerAd: false,
    frontPage: 'default',
    mobileRedirect: false,
    ...site('wetalkpro.app'),
    purchaseInstructionsUrl: null,
    numbersTip: true,
    topUp: dollarTopUp,
    ...palette(
      {
        primary: '#b4420a',
        primaryHover: '#963708',
        onPrimary: '#ffffff',
        primarySoft: '#fdf0e8',
        rail: '#2b1407',
        railText: '#fbe3d3',
        railActive: '#e0661f',
      },
      {
        primary: '#f59a5b',
        primaryHover: '#f8b785',
        onPrimary: '#2b1203',
        primarySoft: '#35200f',
      },
    ),
  },
  jiema: {
    id: 'jiema',
    name: { en: 'Jiema', zh: '接码' },
    currency: dollar,
    defaultLocale: 'zh',
    hideLanguageSwitch: true,
    hiddenTabs: ['chats', 'numbers', 'contacts'],
    hiddenAccountPanels: ['rates', 'call'],
    vipBadge: false,
    bannerAd: false,
    frontPage: 'applist',
    mobileRedirect: false,
    ...site('jiema.app'),
    apps: {
      ios: 'https://apps.apple.com/app/jiema',
      android: 'https://play.google.com/store/apps/details?id=app.jiema',
      apk: 'https://www.jiema.app/download/jiema.apk',
    },
    purchaseInstructionsUrl: null,
    numbersTip: true,
    topUp: { ...dollarTopUp, cryptoBonus: true },
    ...palette(
      {
        primary: '#c62828',
        primaryHover: '#a82020',
        onPrimary: '#ffffff',
        primarySoft: '#fdecec',
        rail: '#3b0d0c',
        railText: '#fde2e1',
        railActive: '#e04a47',
      },
      {
        primary: '#f47c7a',
        primaryHover: '#f7a09e',
        onPrimary: '#2e0706',
        primarySoft: '#3a1716',
      },
    ),
  },
  cloudnumber: {
    id: 'cloudnumber',
    name: { en: 'CloudNumber', zh: '云号码' },
    currency: { code: 'cny', symbol: null, label: { en: '云币', zh: '云币' }, decimals: 2 },
    defaultLocale: 'zh',
    hideLanguageSwitch: true,
    hiddenTabs: ['verification', 'contacts'],
    hiddenAccountPanels: ['codeNumbers', 'codeHistory'],
    vipBadge: false,
    bannerAd: false,
    frontPage: 'default',
    mobileRedirect: false,
    ...site('cloudnumber.app'),
    purchaseInstructionsUrl: 'https://www.cloudnumber.app/purchase-instructions',
    numbersTip: false,
    topUp: {
      presets: [5, 10, 50, 100, 500].map((amount) => ({ amount, bonus: 0 })),
      custom: { min: 11, max: 2000, default: 1000 },
      defaultPresetIndex: 4,
      cryptoBonus: true,
      customGiftRate: 0.15,
    },
    ...palette(
      {
        primary: '#0b7a75',
        primaryHover: '#09645f',
        onPrimary: '#ffffff',
        primarySoft: '#e6f4f3',
        rail: '#083b3a',
        railText: '#d3efed',
        railActive: '#14a39c',
      },
      {
        primary: '#2dc7be',
        primaryHover: '#5fd8d1',
        onPrimary: '#032826',
        primarySoft: '#0c2e2d',
      },
    ),
  },
};

export const defaultBrandId: BrandId = 'numa';

/** The tabs a brand shows, in rail order. */
export const visibleTabs = (brand: Brand): RailTab[] => railTabs.filter((t) => !brand.hiddenTabs.includes(t));
