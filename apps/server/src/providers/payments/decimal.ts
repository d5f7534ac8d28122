import { minor, minorPerUnit, type Minor } from '@numa/contract';

/**
 * Providers' amounts are decimal text ("20.00", "0.006666666666666667"): they are read and compared
 * here as whole numbers of their smallest written unit (bigint), never as floating point, so a crypto
 * amount with 18 decimals or a fiat amount with 2 compares exactly.
 */
const decimalRe = /^(-)?(\d{1,30})(?:\.(\d{1,30}))?$/;

/** The number of decimal places of a Minor (ten-thousandths: 4). */
const minorDecimals = String(minorPerUnit).length - 1;

/** A decimal string as an integer count of 10^-scale, or null when it is not a plain decimal. */
export function parseDecimal(text: string): { units: bigint; scale: number } | null {
  const m = decimalRe.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  const units = BigInt(m[2]! + frac);
  return { units: m[1] ? -units : units, scale: frac.length };
}

const rescale = (d: { units: bigint; scale: number }, scale: number) =>
  d.units * 10n ** BigInt(scale - d.scale);

/** a < b: -1, equal: 0, a > b: 1 (exact; throws on text that is not a decimal). */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) throw new RangeError(`not decimals: ${a}, ${b}`);
  const scale = Math.max(x.scale, y.scale);
  const l = rescale(x, scale);
  const r = rescale(y, scale);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** The decimal rounded to `decimals` places, towards +infinity ('up') or towards zero ('down'). */
export function roundDecimal(text: string, decimals: number, mode: 'up' | 'down'): string {
  const d = parseDecimal(text);
  if (!d) throw new RangeError(`not a decimal: ${text}`);
  let units: bigint;
  if (d.scale <= decimals) units = rescale(d, decimals);
  else {
    const step = 10n ** BigInt(d.scale - decimals);
    units = d.units / step; // truncates towards zero
    if (mode === 'up' && d.units > 0n && d.units % step !== 0n) units += 1n;
  }
  return formatUnits(units, decimals);
}

/** An integer count of 10^-decimals as decimal text ("2000", 2 → "20.00"). */
export function formatUnits(units: bigint, decimals: number): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = decimals ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${neg ? '-' : ''}${whole}${frac}`;
}

/** "20.00" → Minor (exact); null when the text is not a decimal or has more than 4 decimals that are not 0. */
export function decimalToMinor(text: string): Minor | null {
  const d = parseDecimal(text);
  if (!d) return null;
  let units: bigint;
  if (d.scale <= minorDecimals) units = rescale(d, minorDecimals);
  else {
    const step = 10n ** BigInt(d.scale - minorDecimals);
    if (d.units % step !== 0n) return null;
    units = d.units / step;
  }
  if (units > BigInt(Number.MAX_SAFE_INTEGER) || units < -BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return minor(units);
}

/** Minor → decimal text with `decimals` places (2 for USD / CNY); throws when it would lose a digit. */
export function minorToDecimal(m: Minor, decimals: number): string {
  const units = BigInt(m);
  if (decimals >= minorDecimals)
    return formatUnits(units * 10n ** BigInt(decimals - minorDecimals), decimals);
  const step = 10n ** BigInt(minorDecimals - decimals);
  if (units % step !== 0n) throw new RangeError(`${m} ten-thousandths is not whole to ${decimals} decimals`);
  return formatUnits(units / step, decimals);
}

/** a × b, exact (the scales add up). */
export function mulDecimal(a: string, b: string): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) throw new RangeError(`not decimals: ${a}, ${b}`);
  return formatUnits(x.units * y.units, x.scale + y.scale);
}

/** Decimal text without trailing zeros after the point ("20.50000000" → "20.5", "20.00" → "20"). */
export const trimDecimal = (text: string): string =>
  text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
