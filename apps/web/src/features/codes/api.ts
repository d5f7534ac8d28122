import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@numa/contract';
import { call } from '../../lib/api';
import { currentLang } from '../../lib/i18n';

export const codeKeys = {
  apps: (lang: string) => ['codes', 'apps', lang] as const,
  numbers: (app: string, country: string) => ['codes', 'numbers', app, country] as const,
  fee: (app: string, country: string) => ['codes', 'fee', app, country] as const,
};

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

export const accountCodeKeys = {
  apps: ['codes', 'accountApps'] as const,
  numbers: (app: string) => ['codes', 'accountNumbers', app] as const,
  history: (ym: string) => ['codes', 'history', ym] as const,
};

/** The apps of the account's verification numbers (the 'recently used' tab). */
export const useAccountApps = () =>
  useQuery({ queryKey: accountCodeKeys.apps, queryFn: () => call(endpoints.getAppListByAccount, {}) });

/** The account's verification numbers, one app's or all ('' for all). */
export const useAccountNumbers = (app: string | null) =>
  useQuery({
    queryKey: accountCodeKeys.numbers(app ?? ''),
    queryFn: () => call(endpoints.getCodeNumberListByAccount, app ? { app } : {}),
    enabled: app !== null,
  });

/** The current UTC month and the `n - 1` before it, as YYYY-MM, newest first. */
export function lastMonths(n: number, now = new Date()): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return d.toISOString().slice(0, 7);
  });
}
