import { useQuery } from '@tanstack/react-query';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../lib/api';
import { queryClient } from '../../lib/query';
import { queryKeys } from '../../lib/queryKeys';
import { useSession } from '../../stores/session';

/* The account as every area reads it: its info, balance, billing profile, identity documents and own
 * numbers (issue 19 §3: what several features need lives below them). */

export const useAccountInfo = () =>
  useQuery({ queryKey: queryKeys.account.info(), queryFn: () => call(endpoints.getAccountInfo, {}) });

/** The account's info read now (not from the cache), e.g. to choose between set and update. */
export const fetchAccountInfo = () =>
  queryClient.fetchQuery({
    queryKey: queryKeys.account.info(),
    queryFn: () => call(endpoints.getAccountInfo, {}, { silent: true }),
    staleTime: 0,
  });

/** The account's info if it was read already (no call). */
export const cachedAccountInfo = () =>
  queryClient.getQueryData<{ telCode: string; phone: string; email: string }>(queryKeys.account.info());

export const useBalance = () =>
  useQuery({ queryKey: queryKeys.account.balance(), queryFn: () => call(endpoints.queryBalance, {}) });

/** The balance if it was read already (no call). */
export const cachedBalance = () => queryClient.getQueryData<{ balance: number }>(queryKeys.account.balance());

/** The balance on screen is read again (after a charge or credit the socket did not tell). */
export const refreshBalance = () => queryClient.invalidateQueries({ queryKey: queryKeys.account.balance() });

/** The chat id (spec 000 §3 Account info): the phone without its tel code, else the phone, else the e-mail. */
export function chatId(info: { telCode: string; phone: string; email: string } | undefined): string {
  if (!info) return '';
  // the account's phone is kept as its national number, so it already has no tel code
  return info.phone || info.email;
}

/**
 * The billing profile and its review state. Decided: refetched when the window regains focus, so an
 * operator's decision shows on the user's next look without a reload.
 */
export const useProfile = () =>
  useQuery({
    queryKey: queryKeys.account.profile(),
    queryFn: () => call(endpoints.getProfile, {}),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** The billing profile and the identity documents are read again (after either was submitted). */
export const refreshProfile = () => queryClient.invalidateQueries({ queryKey: queryKeys.account.profile() });
export const refreshKyc = () => queryClient.invalidateQueries({ queryKey: queryKeys.account.kyc() });

/** The identity documents on file and their review state (same refresh rule). */
export const useKycInfo = () =>
  useQuery({
    queryKey: queryKeys.account.kyc(),
    queryFn: () => call(endpoints.getKYCInfo, {}),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/**
 * After a change of phone, e-mail, profile or bonus (spec 000 §4: "refreshes account, profile and
 * balance"): the account's queries are fetched again and the invite flags follow the server.
 */
export async function refreshAccount() {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.account.balance() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.account.profile() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.account.inviter() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.account.kyc() }),
  ]);
  try {
    const info = await fetchAccountInfo();
    useSession.getState().setFlags({ canInvite: info.canInvite, canSetInviter: info.canSetInviter });
  } catch {
    /* the panels show their own error states */
  }
}

/**
 * The account's own (rented) numbers; the first is the primary number on the profile. One query for
 * the chats, the numbers tab and the profile.
 */
export const useOwnNumbers = () =>
  useQuery({
    queryKey: queryKeys.account.ownNumbers(),
    queryFn: () => call(endpoints.getVirtualPhoneList, {}, { silent: true }),
    staleTime: 60_000,
  });
