import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { constants, endpoints, type NumberCountry, type NumberKind } from '@numa/contract';
import { call } from '../../lib/api';
import { accountKeys } from '../account/api';
import { chatKeys } from '../chats/api';

export const numberKeys = {
  areas: ['numbers', 'areas'] as const,
  free: (code: string, type: string, areaCode: string | undefined) =>
    ['numbers', 'free', code, type, areaCode ?? ''] as const,
  plans: (code: string, type: string) => ['numbers', 'plans', code, type] as const,
  history: (month: string) => ['numbers', 'history', month] as const,
};

export const useAreas = () =>
  useQuery({
    queryKey: numberKeys.areas,
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
    queryKey: numberKeys.plans(code ?? '', type ?? ''),
    queryFn: () => call(endpoints.getPlanList, { code: code!, type: type! }, { silent: true }),
    enabled: !!code && !!type,
  });

/** The account's numbers: the chats area's query (same key), so a rented number shows in Chats at once. */
export const useMyNumbers = () =>
  useQuery({
    queryKey: chatKeys.phones,
    queryFn: () => call(endpoints.getVirtualPhoneList, {}, { silent: true }),
    staleTime: 60_000,
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
    qc.invalidateQueries({ queryKey: chatKeys.phones }),
    qc.invalidateQueries({ queryKey: accountKeys.balance }),
    qc.invalidateQueries({ queryKey: ['numbers'] }),
  ]);
}
