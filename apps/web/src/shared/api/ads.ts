import { useQuery } from '@tanstack/react-query';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../lib/api';
import { brand } from '../../lib/config';
import { queryKeys } from '../../lib/queryKeys';

/** The brand's banner ad (getAdConfig), only on the brands that show one. */
export const useBannerAd = () =>
  useQuery({
    queryKey: queryKeys.ads.banner(),
    queryFn: () => call(endpoints.getAdConfig, {}, { silent: true }),
    enabled: brand.bannerAd,
    staleTime: 5 * 60_000,
  });
