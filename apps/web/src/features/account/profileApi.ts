import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@numa/contract';
import { call } from '../../lib/api';
import { queryClient } from '../../lib/query';
import { useSession } from '../../stores/session';
import { accountKeys } from './api';

export const profileKeys = {
  profile: ['account', 'profile'] as const,
  kyc: ['account', 'kyc'] as const,
  inviter: ['account', 'inviter'] as const,
  invite: ['account', 'inviteInfo'] as const,
};

/**
 * The billing profile and its review state. Decided: refetched when the window regains focus, so an
 * operator's decision shows on the user's next look without a reload.
 */
export const useProfile = () =>
  useQuery({
    queryKey: profileKeys.profile,
    queryFn: () => call(endpoints.getProfile, {}),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** The identity documents on file and their review state (same refresh rule). */
export const useKycInfo = () =>
  useQuery({
    queryKey: profileKeys.kyc,
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
    queryClient.invalidateQueries({ queryKey: accountKeys.balance }),
    queryClient.invalidateQueries({ queryKey: profileKeys.profile }),
    queryClient.invalidateQueries({ queryKey: profileKeys.inviter }),
    queryClient.invalidateQueries({ queryKey: profileKeys.kyc }),
  ]);
  try {
    const info = await queryClient.fetchQuery({
      queryKey: accountKeys.info,
      queryFn: () => call(endpoints.getAccountInfo, {}, { silent: true }),
      staleTime: 0,
    });
    useSession.getState().setFlags({ canInvite: info.canInvite, canSetInviter: info.canSetInviter });
  } catch {
    /* the panels show their own error states */
  }
}

/**
 * The account's own numbers; the first is the primary number on the profile. Same query as the
 * chats area's (same key and call), so the two share one cache.
 */
export const useOwnNumbers = () =>
  useQuery({
    queryKey: ['chats', 'virtualPhones'] as const,
    queryFn: () => call(endpoints.getVirtualPhoneList, {}, { silent: true }),
    staleTime: 60_000,
  });
