import { formatMoney } from '@numa/contract';
import { brand } from './config';
import { currentLang } from './i18n';

/** A balance or charge in the brand's unit and decimals; negatives with a minus. */
export const money = (amount: number, decimals?: number) => formatMoney(brand, amount, currentLang(), decimals);
