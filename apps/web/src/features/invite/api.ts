import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@numa/contract';
import { call } from '../../lib/api';
import { profileKeys } from '../account/profileApi';

export const useInviteInfo = () =>
  useQuery({ queryKey: profileKeys.invite, queryFn: () => call(endpoints.queryInviteInfo, {}) });

/** Whether the account may still redeem a code (its phone, canSetInviter and balance). */
export const useInviter = () =>
  useQuery({
    queryKey: profileKeys.inviter,
    queryFn: () => call(endpoints.getInviter, {}),
    staleTime: 5_000,
  });

/** The share link of an invite code: the brand's site with `?referral=<code>` (contract: invite.ts). */
export const referralLink = (siteUrl: string, code: string, param: string) =>
  `${siteUrl.replace(/\/$/, '')}/?${param}=${encodeURIComponent(code)}`;
