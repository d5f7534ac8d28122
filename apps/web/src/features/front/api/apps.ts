import { useQuery } from '@tanstack/react-query';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';

/** The apps and countries codes can be received for, in the page's language (anonymous). */
export const useAppCatalogue = (lang: string) =>
  useQuery({ queryKey: queryKeys.appList(lang), queryFn: () => call(endpoints.getAppList, {}) });
