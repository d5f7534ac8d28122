import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { constants, type NumberCountry, type NumberKind } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { useTranslation } from 'react-i18next';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

const numberKeys = queryKeys.numbers;

export const useAreas = () =>
  useQuery({
    queryKey: numberKeys.areas(useTranslation().i18n.language),
    queryFn: () => call(endpoints.getAreaCodeV2, {}, { silent: true }),
    staleTime: 3_600_000,
  });

/** Free numbers of an area (step 1's list); disabled until the area is complete. */
export const useFreeNumbers = (
  q: { code: NumberCountry; type: NumberKind; telCode: string; areaCode?: string | undefined } | null,
) =>
  useQuery({
    queryKey: numberKeys.free(q?.code ?? '', q?.type ?? '', q?.areaCode),
    queryFn: () => call(endpoints.getVirtualPhoneByAreaCode, q!, { silent: true }),
    enabled: !!q,
  });

export const usePlans = (code: NumberCountry | null, type: NumberKind | null) =>
  useQuery({
    queryKey: numberKeys.plans(code ?? '', type ?? '', useTranslation().i18n.language),
    queryFn: () => call(endpoints.getPlanList, { code: code!, type: type! }, { silent: true }),
    enabled: !!code && !!type,
  });

/** A month of subscription history, page by page (infinite scroll; spec 001 §9 page size 200). */
export const useSubscriptionHistory = (month: string) =>
  useInfiniteQuery({
    queryKey: numberKeys.history(month),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(
        endpoints.getSubscriptionList,
        { date: month, pageNo: pageParam, pageSize: constants.pageSize.subscription },
        { silent: true },
      ),
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.list.length, 0) < last.totalRows && last.list.length > 0
        ? pages.length + 1
        : undefined,
  });

/** After anything that changes the account's numbers or balance. */
export async function refreshNumbers(qc: QueryClient) {
  await Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.account.ownNumbers() }),
    qc.invalidateQueries({ queryKey: queryKeys.account.balance() }),
    qc.invalidateQueries({ queryKey: numberKeys.all }),
  ]);
}

/** The plans a rented number may change to (Manage). */
export const useManagePlans = (fullNumber: string) =>
  useQuery({
    queryKey: numberKeys.manage(fullNumber),
    queryFn: () => call(endpoints.getManagePlanList, { virtualNumber: fullNumber }, { silent: true }),
  });
