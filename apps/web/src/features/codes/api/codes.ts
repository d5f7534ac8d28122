import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { constants } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { currentLang } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query';
import { queryKeys } from '../../../lib/queryKeys';

const codeKeys = queryKeys.codes;

/** The apps and countries codes can be received for. */
export const useCodeCatalogue = () => {
  const lang = currentLang();
  return useQuery({ queryKey: codeKeys.apps(lang), queryFn: () => call(endpoints.getAppList, {}) });
};

/** Numbers for an app and country: the account's own first, then free ones. */
export const usePhoneList = (app: string | null, country: string | null) =>
  useQuery({
    queryKey: codeKeys.numbers(app ?? '', country ?? ''),
    queryFn: () => call(endpoints.getVerificationCodePhoneListV2, { app: app!, code: country! }),
    enabled: !!app && !!country,
  });

/** What one code costs (and keeping the number a month). */
export const useCodeFee = (app: string | null, country: string | null) =>
  useQuery({
    queryKey: codeKeys.fee(app ?? '', country ?? ''),
    queryFn: () => call(endpoints.getCodeNumberFeeByAppV2, { app: app!, code: country! }, { silent: true }),
    enabled: !!app && !!country,
    retry: false,
  });

/** The apps of the account's verification numbers (the 'recently used' tab). */
export const useAccountApps = () =>
  useQuery({ queryKey: codeKeys.accountApps(), queryFn: () => call(endpoints.getAppListByAccount, {}) });

/** The account's verification numbers, one app's or all ('' for all). */
export const useAccountNumbers = (app: string | null) =>
  useQuery({
    queryKey: codeKeys.accountNumbers(app ?? ''),
    queryFn: () => call(endpoints.getCodeNumberListByAccount, app ? { app } : {}),
    enabled: app !== null,
  });

/** A month of the verification numbers' subscription history, page by page. */
export const useCodeHistory = (ym: string) =>
  useInfiniteQuery({
    queryKey: codeKeys.history(ym),
    queryFn: ({ pageParam }) =>
      call(endpoints.getSubCodeNumberList, {
        ym,
        pageSize: constants.pageSize.subscribedNumbers,
        ...(pageParam ? { nextPage: pageParam } : {}),
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextPage,
  });

/** Every query of the codes area is read again (after a number was kept, given back or renewed). */
export const refreshCodes = () => queryClient.invalidateQueries({ queryKey: codeKeys.all });

/** The apps and countries as the anonymous public pages read them. */
export const usePublicCatalogue = (lang: string) =>
  useQuery({ queryKey: queryKeys.appList(lang), queryFn: () => call(endpoints.getAppList, {}) });

/** The free numbers of an app and country on our public page (no session). */
export const useAnonymousNumbers = (app: string, country: string) =>
  useQuery({
    queryKey: codeKeys.anonymous(app, country),
    queryFn: () =>
      call(endpoints.getVerificationCodePhoneListAnonymous, { app, code: country }, { silent: true }),
    retry: false,
  });

/** The current UTC month and the `n - 1` before it, as YYYY-MM, newest first. */
export function lastMonths(n: number, now = new Date()): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return d.toISOString().slice(0, 7);
  });
}
