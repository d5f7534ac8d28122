import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@numa/contract';
import { call } from '../../lib/api';
import { balanceKey } from '../../lib/balance';

export const accountKeys = {
  info: ['account', 'info'] as const,
  balance: balanceKey,
};

export const useAccountInfo = () =>
  useQuery({ queryKey: accountKeys.info, queryFn: () => call(endpoints.getAccountInfo, {}) });
export const useBalance = () =>
  useQuery({ queryKey: accountKeys.balance, queryFn: () => call(endpoints.queryBalance, {}) });

/** The chat id (spec 000 §3 Account info): the phone without its tel code, else the phone, else the e-mail. */
export function chatId(info: { telCode: string; phone: string; email: string } | undefined): string {
  if (!info) return '';
  // the account's phone is kept as its national number, so it already has no tel code
  return info.phone || info.email;
}
