import { useQuery } from '@tanstack/react-query';
import { endpoints, productId, type PaymentMethodKey } from '@numa/contract';
import { call } from '../../lib/api';
import { brand } from '../../lib/config';

export const paymentKeys = {
  methods: ['payments', 'methods'] as const,
  status: (orderId: string) => ['payments', 'status', orderId] as const,
};

export const usePaymentMethods = () =>
  useQuery({ queryKey: paymentKeys.methods, queryFn: () => call(endpoints.getPaymentMethods, {}) });

/** The methods the Recharge panel lists, in order (direct crypto transfers come with the crypto dialog). */
export const listedMethods: readonly PaymentMethodKey[] = [
  'creditCard',
  'paypal',
  'wechatpay',
  'alipay',
  'unionpay',
  'cryptoPay',
];

export const currency = brand.id === 'cloudnumber' ? 'cny' : 'usd';

/** What the summary shows and the server credits (spec 001 §9): a preset's bonus, or 15 % of a custom amount. */
export function giftOf(method: PaymentMethodKey | null, amount: number, presetBonus: number | null): number {
  const crypto = method === 'cryptoPay';
  if (crypto && !brand.topUp.cryptoBonus) return 0;
  if (presetBonus === null) return Math.round(amount * brand.topUp.customGiftRate * 100) / 100;
  return presetBonus;
}

export interface Choice {
  method: PaymentMethodKey;
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
      return { orderId: r.orderId, paymentUrl: null, form: { action: r.formAction, fields: r.formFields } };
    }
    case 'alipay': {
      const r = await call(
        endpoints.alipayPaySubmit,
        { productid: productId('alipay', currency, amount), return_url: returnUrl, ...custom },
        { silent: true },
      );
      return { orderId: r.orderId, paymentUrl: r.paymentUrl, form: null };
    }
    case 'cryptoPay': {
      const r = await call(
        endpoints.cryptoCurrencyPaySubmit,
        { productid: productId('cryptoPay', currency, amount), return_url: returnUrl, ...custom },
        { silent: true },
      );
      return { orderId: r.orderId, paymentUrl: r.paymentUrl, form: null };
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
      return { orderId: r.orderId, paymentUrl: r.paymentUrl, form: null };
    }
  }
}
