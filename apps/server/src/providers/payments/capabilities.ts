import type { CryptoCurrency, CryptoNetwork, PaymentMethodKey } from '@numa/contract';
import type { Checkout, PaymentProvider } from './port';

/**
 * What an adapter can say beyond the port (issue 18 §2), kept out of port.ts so that the port stays
 * the shape both payments branches agreed on: which methods it can take now, and — for a direct
 * crypto transfer — the destination and exact amount its processor quoted.
 */
export interface ServesMethods {
  /**
   * The methods this provider can take now. The selection (getPaymentMethods, paySubmit) asks it
   * before offering a method: a method it does not name is not offered.
   */
  servedMethods(): Promise<ReadonlySet<PaymentMethodKey>>;
  /** Direct transfers: whether it takes this coin on this network (null: a coin without networks). */
  servesTransfer?(currency: CryptoCurrency, network: CryptoNetwork | null): Promise<boolean>;
}

export const servesMethods = (p: PaymentProvider): p is PaymentProvider & ServesMethods =>
  typeof (p as Partial<ServesMethods>).servedMethods === 'function';

/** A direct crypto transfer as the processor quoted it: send exactly `amount` of `currency` to `address`. */
export interface Transfer {
  currency: CryptoCurrency;
  network: CryptoNetwork | null;
  /** Decimal text, at most 8 decimals (rounded up from the processor's amount: never short). */
  amount: string;
  address: string;
  /** Legal money per coin, decimal text (at most 8 decimals). */
  rate: string;
  /** When the rate was read (epoch ms). */
  rateTime: number;
}

/** A checkout that is a direct transfer (its processor chose the address and the amount). */
export interface TransferCheckout extends Checkout {
  transfer: Transfer;
}

export const transferOf = (c: Checkout): Transfer | undefined => (c as Partial<TransferCheckout>).transfer;
