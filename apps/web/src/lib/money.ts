import { formatMoney } from '@numa/contract';
import { brand } from './config';
import { currentLang } from './i18n';

/** A balance or charge in the brand's unit and decimals; negatives with a minus. */
export const money = (amount: number, decimals?: number) =>
  formatMoney(brand, amount, currentLang(), decimals);

/**
 * A bonus or other round amount as the spec writes it ("0.2 Coins"): no trailing zeros past the
 * brand's decimals. A currency with a symbol keeps its cents ("$0.20"). Balances and charges keep
 * `money` (4 decimals, 2 on cloudnumber). Issue 13 §3.7.
 */
export const bonusMoney = (amount: number) => {
  if (brand.currency.symbol) return money(amount);
  const shown = amount.toFixed(brand.currency.decimals).replace(/\.?0+$/, '');
  const decimals = shown.includes('.') ? shown.length - shown.indexOf('.') - 1 : 0;
  return formatMoney(brand, amount, currentLang(), decimals);
};
