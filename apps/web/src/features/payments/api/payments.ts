import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  constants,
  productId,
  type CryptoCurrency,
  type CryptoNetwork,
  type PaymentMethodKey,
} from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { brand } from '../../../lib/config';
import { queryKeys } from '../../../lib/queryKeys';

export const usePaymentMethods = () =>
  useQuery({ queryKey: queryKeys.payments.methods(), queryFn: () => call(endpoints.getPaymentMethods, {}) });

/** An order's status (the payment dialogs add when it is read again). */
export const orderStatusQuery = (orderId: string | null) =>
  queryOptions({
    queryKey: queryKeys.payments.status(orderId ?? ''),
    queryFn: () => call(endpoints.queryPaymentStatus, { orderId: orderId! }, { silent: true }),
    enabled: !!orderId,
  });

/** Cancels a pending order whose payment dialog was closed. */
export const cancelOrder = (orderId: string) => call(endpoints.cancelPayment, { orderId }, { silent: true });

/** A choice of the method list: a method, or `crypto` (a direct transfer; its dialog picks the coin). */
export type ListedMethod = PaymentMethodKey | 'crypto';

/** The methods the Recharge panel lists, in order. */
export const listedMethods: readonly ListedMethod[] = [
  'creditCard',
  'paypal',
  'wechatpay',
  'alipay',
  'unionpay',
  'cryptoPay',
  'crypto',
];

/** The direct crypto currencies, each shown only if its flag is on (spec 001 §9). */
export const cryptoFlags: Record<CryptoCurrency, PaymentMethodKey> = {
  USDC: 'usdcPay',
  USDT: 'usdtPay',
  TUSD: 'tusdPay',
  ETH: 'ethPay',
  BCH: 'bchPay',
};

/** Networks per currency (spec 001 §5): none for ETH and BCH; USDC on ERC-20, BSC, Polygon; others also TRC-20. */
export function networksOf(c: CryptoCurrency): CryptoNetwork[] {
  if ((constants.cryptoWithoutNetwork as readonly string[]).includes(c)) return [];
  if (c === 'USDC') return [...constants.usdcNetworks] as CryptoNetwork[];
  return [...constants.cryptoNetworks];
}

/** What the brand's top-ups are priced in (the brand table). */
export const currency = brand.currency.code;

/** What the summary shows and the server credits (spec 001 §9): a preset's bonus, or 15 % of a custom amount. */
export function giftOf(method: ListedMethod | null, amount: number, presetBonus: number | null): number {
  const crypto = method === 'cryptoPay' || method === 'crypto';
  if (crypto && !brand.topUp.cryptoBonus) return 0;
  if (presetBonus === null) return Math.round(amount * brand.topUp.customGiftRate * 100) / 100;
  return presetBonus;
}

export interface Choice {
  method: Exclude<ListedMethod, 'crypto'>;
  /** a preset amount, or null for the custom amount */
  preset: number | null;
  custom: number;
}

/** Submits by method (spec 001 §4: Pay dispatches by method); returns the order and what to open. */
export async function submitPayment(c: Choice, returnUrl: string) {
  const amount = c.preset ?? 'CUSTOM';
  const custom = c.preset === null ? { custom_amount: c.custom } : {};
  switch (c.method) {
    case 'paypal': {
      const r = await call(
        endpoints.paypalPaySubmit,
        { productid: productId('paypal', currency, amount) },
        { silent: true },
      );
      // PayPal's approval page (Orders v2), opened like every provider page
      return { orderId: r.orderId, paymentUrl: r.paymentUrl };
    }
    case 'alipay': {
      const r = await call(
        endpoints.alipayPaySubmit,
        { productid: productId('alipay', currency, amount), return_url: returnUrl, ...custom },
        { silent: true },
      );
      return { orderId: r.orderId, paymentUrl: r.paymentUrl };
    }
    case 'cryptoPay': {
      const r = await call(
        endpoints.cryptoCurrencyPaySubmit,
        { productid: productId('cryptoPay', currency, amount), return_url: returnUrl, ...custom },
        { silent: true },
      );
      return { orderId: r.orderId, paymentUrl: r.paymentUrl };
    }
    default: {
      const method = c.method as 'creditCard' | 'wechatpay' | 'unionpay';
      const r = await call(
        endpoints.paySubmit,
        {
          payment_method: method,
          productid: productId(method, currency, amount),
          return_url: returnUrl,
          ...custom,
        },
        { silent: true },
      );
      return { orderId: r.orderId, paymentUrl: r.paymentUrl };
    }
  }
}

/** The direct crypto transfer (etherPay/paySubmit): amount, address, rate and time. */
export function submitCrypto(
  c: { preset: number | null; custom: number },
  currencyCode: CryptoCurrency,
  network: CryptoNetwork | null,
) {
  return call(
    endpoints.etherPayPaySubmit,
    {
      productid: productId('crypto', currency, c.preset ?? 'CUSTOM'),
      ...(c.preset === null ? { custom_amount: c.custom } : {}),
      currency: currencyCode,
      ...(network ? { network } : {}),
    },
    { silent: true },
  );
}
