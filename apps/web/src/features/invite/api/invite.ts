import { useQuery } from '@tanstack/react-query';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

export const useInviteInfo = () =>
  useQuery({ queryKey: queryKeys.account.inviteInfo(), queryFn: () => call(endpoints.queryInviteInfo, {}) });

/** Whether the account may still redeem a code (its phone, canSetInviter and balance). */
export const useInviter = () =>
  useQuery({
    queryKey: queryKeys.account.inviter(),
    queryFn: () => call(endpoints.getInviter, {}),
    staleTime: 5_000,
  });

/** Redeems an invite code: the bonus it credited. */
export const redeemInviteCode = (inviteCode: string) =>
  call(endpoints.setInviter, { inviteCode }, { silent: true });

/** The share link of an invite code: the brand's site with `?referral=<code>` (contract: invite.ts). */
export const referralLink = (siteUrl: string, code: string, param: string) =>
  `${siteUrl.replace(/\/$/, '')}/?${param}=${encodeURIComponent(code)}`;
