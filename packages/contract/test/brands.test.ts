import { describe, expect, it } from 'vitest';
import {
  brandIds,
  brands,
  contrastRatio,
  defaultBrandId,
  formatMinor,
  formatMoney,
  fromMinor,
  minor,
  mulMinor,
  roundMinor,
  toMinor,
  visibleTabs,
} from '../src/index';

describe('brands', () => {
  it('has the six brands, each complete', () => {
    expect(Object.keys(brands).sort()).toEqual([...brandIds].sort());
    expect(brandIds).toHaveLength(6);
    expect(brands[defaultBrandId].id).toBe('numa');
    for (const id of brandIds) {
      const b = brands[id];
      expect(b.id).toBe(id);
      expect(b.name.en && b.name.zh).toBeTruthy();
      expect(b.currency.label.en && b.currency.label.zh).toBeTruthy();
      expect([2, 4]).toContain(b.currency.decimals);
      expect(b.supportEmail).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/);
      for (const url of [
        b.siteUrl,
        b.termsUrl,
        b.privacyUrl,
        b.tollFreeFormUrl,
        b.apps.ios,
        b.apps.android,
      ]) {
        expect(url).toMatch(/^https:\/\//);
      }
      expect(b.topUp.presets.length).toBeGreaterThan(0);
      expect(b.topUp.custom.min).toBeLessThan(b.topUp.custom.max);
      expect(b.topUp.custom.default).toBeGreaterThanOrEqual(b.topUp.custom.min);
      expect(b.topUp.custom.default).toBeLessThanOrEqual(b.topUp.custom.max);
      expect(b.topUp.presets[b.topUp.defaultPresetIndex]).toBeDefined();
      for (const c of Object.values(b.colors)) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
      expect(['default', 'applist']).toContain(b.frontPage);
    }
  });

  it('keeps its colour pairs at WCAG AA contrast (4.5:1), as the type says (issue 13 §3.14)', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    for (const id of brandIds) {
      const c = brands[id].colors;
      // the active menu item and links on their soft tint; a primary button's text; the rail's text
      expect(ratio(c.primary, c.primarySoft), `${id} primary on primarySoft`).toBeGreaterThanOrEqual(4.5);
      expect(ratio(c.primary, '#ffffff'), `${id} primary on white`).toBeGreaterThanOrEqual(4.5);
      expect(ratio(c.onPrimary, c.primary), `${id} onPrimary on primary`).toBeGreaterThanOrEqual(4.5);
      expect(ratio(c.railText, c.rail), `${id} railText on rail`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('has a dark set of the same colours whose own pairs keep 4.5:1 (issue 22 §5)', () => {
    // the pairs with the dark neutrals (surfaces, text) are checked with the stylesheet: apps/web/src/theme.test.ts
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    for (const id of brandIds) {
      const { colors, colorsDark: d } = brands[id];
      expect(Object.keys(d)).toEqual(Object.keys(colors));
      for (const c of Object.values(d)) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrastRatio(d.onPrimary, d.primary), `${id} dark onPrimary on primary`).toBeGreaterThanOrEqual(
        4.5,
      );
      expect(
        contrastRatio(d.onPrimary, d.primaryHover),
        `${id} dark onPrimary on hover`,
      ).toBeGreaterThanOrEqual(4.5);
      expect(
        contrastRatio(d.primary, d.primarySoft),
        `${id} dark primary on primarySoft`,
      ).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(d.railText, d.rail), `${id} dark railText on rail`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('numa counts in Coins, dollar brands in dollars', () => {
    expect(brands.numa.currency.label.en).toBe('Coins');
    for (const id of ['wephone', 'wetalk', 'wetalkpro'] as const)
      expect(brands[id].currency.symbol).toBe('$');
  });

  it('jiema hides chats, numbers and contacts and has the applist front page', () => {
    const j = brands.jiema;
    expect(j.hiddenTabs).toEqual(expect.arrayContaining(['chats', 'numbers', 'contacts']));
    expect(j.frontPage).toBe('applist');
    expect(j.hiddenAccountPanels).toEqual(expect.arrayContaining(['rates', 'call']));
    expect(visibleTabs(j)).toEqual(['verification', 'tabAccount']);
    expect(j.apps.apk).toMatch(/^https:\/\//);
  });

  it('cloudnumber shows 2 decimals and hides verification and contacts', () => {
    const c = brands.cloudnumber;
    expect(c.currency.decimals).toBe(2);
    expect(c.hiddenTabs).toEqual(expect.arrayContaining(['verification', 'contacts']));
    expect(visibleTabs(c)).toEqual(['chats', 'numbers', 'tabAccount']);
    expect(c.topUp.presets.map((p) => p.amount)).toEqual([5, 10, 50, 100, 500]);
    expect(c.topUp.custom).toEqual({ min: 11, max: 2000, default: 1000 });
  });

  it('shows the VIP badge on one dollar brand only', () => {
    expect(brandIds.filter((id) => brands[id].vipBadge)).toHaveLength(1);
  });

  it('gives dollar-brand bonuses as the spec lists them', () => {
    expect(brands.wephone.topUp.presets).toEqual([
      { amount: 2, bonus: 0 },
      { amount: 5, bonus: 0 },
      { amount: 10, bonus: 1 },
      { amount: 20, bonus: 2 },
      { amount: 50, bonus: 6 },
      { amount: 100, bonus: 13 },
    ]);
    expect(brands.wephone.topUp.cryptoBonus).toBe(false);
  });
});

describe('money', () => {
  it('formats with the brand decimals, unit and sign', () => {
    expect(formatMoney(brands.numa, 12.3456, 'en')).toBe('12.3456 Coins');
    expect(formatMoney(brands.numa, 0.2, 'zh')).toBe('0.2000 金币');
    expect(formatMoney(brands.wephone, 12.3456, 'en')).toBe('$12.3456');
    expect(formatMoney(brands.wetalk, -0.008, 'en')).toBe('-$0.0080');
    expect(formatMoney(brands.cloudnumber, -0.5, 'zh')).toBe('-0.50 云币');
    expect(formatMoney(brands.cloudnumber, 1000, 'en')).toBe('1000.00 云币');
    expect(formatMoney(brands.wephone, 10, 'en', 2)).toBe('$10.00');
  });

  it('converts to and from ten-thousandths without float drift', () => {
    expect(toMinor(0.1) + toMinor(0.2)).toBe(toMinor(0.3));
    expect(toMinor(12.3456)).toBe(123456);
    expect(toMinor(-0.00005)).toBe(-1);
    expect(toMinor(1.00005)).toBe(10001);
    expect(fromMinor(minor(123456))).toBe(12.3456);
    expect(fromMinor(minor(-80))).toBe(-0.008);
    expect(fromMinor(10n ** 6n)).toBe(100);
    expect(() => minor(1.5)).toThrow(RangeError);
    expect(mulMinor(minor(80), 3)).toBe(240);
  });

  it('rounds for display in integers', () => {
    expect(roundMinor(minor(12345), 2)).toBe(12300);
    expect(roundMinor(minor(12350), 2)).toBe(12400);
    expect(roundMinor(minor(-12350), 2)).toBe(-12400);
    expect(formatMinor(brands.cloudnumber, minor(-5050), 'zh')).toBe('-0.51 云币');
    expect(formatMinor(brands.numa, minor(80), 'en')).toBe('0.0080 Coins');
  });
});
