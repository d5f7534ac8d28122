import { fromMinor, toMinor } from '@numa/contract';

/** Database money (bigint ten-thousandths) to API numbers and back. Arithmetic stays in integers. */
export const toApiMoney = (minor: number): number => fromMinor(minor);
export const fromApiMoney = (amount: number): number => toMinor(amount);
