import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { constants } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

const historyKeys = queryKeys.history;

export const usePaymentList = (ym: string) =>
  useQuery({
    queryKey: historyKeys.payments(ym),
    queryFn: () =>
      call(
        endpoints.getPaymentList,
        { date: ym, pageNo: 1, pageSize: constants.pageSize.payment },
        { silent: true },
      ),
  });

export const useBillList = (ym: string) =>
  useInfiniteQuery({
    queryKey: historyKeys.bills(ym),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        endpoints.getBillList,
        { ym, pageSize: constants.pageSize.bill, ...(pageParam ? { nextPage: pageParam } : {}) },
        { silent: true },
      ),
    getNextPageParam: (last) => last.nextPage ?? undefined,
  });

export const useSmsList = (ym: string) =>
  useInfiniteQuery({
    queryKey: historyKeys.sms(ym),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(
        endpoints.getNormalSmsList,
        { date: ym, pageNo: pageParam, pageSize: constants.pageSize.sms },
        { silent: true },
      ),
    getNextPageParam: (last, all) =>
      all.reduce((n, p) => n + p.smsList.length, 0) < last.totalRows ? all.length + 1 : undefined,
  });

/** A month of calls (spec 001 §2 Call history). */
export const useCallList = (ym: string) =>
  useQuery({
    queryKey: historyKeys.calls(ym),
    queryFn: () =>
      call(
        endpoints.getCallList,
        { date: ym, pageNo: 1, pageSize: constants.pageSize.call },
        { silent: true },
      ),
  });

/** Near the bottom of a scrolled list (spec 001 §5: within `threshold` px). */
export const nearBottom = (el: HTMLElement, threshold: number) =>
  el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;

export const dateTime = (ms: number, lang: string) =>
  new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(ms),
  );
