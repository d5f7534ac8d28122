import type { BannerAds } from '@numa/contract';
import type { Queryable } from '../db';

export const adsRepo = {
  /** The brand's banner ad, or null when the brand shows none. */
  async ofBrand(q: Queryable, brand: string): Promise<BannerAds | null> {
    const [row] = await q.query<BannerAds>(
      `SELECT redirect_url AS "bannerAdsRedirectUrl", picture_url AS "bannerAdsPictureUrl",
              redirect_url_cn AS "bannerAdsRedirectUrlCn", picture_url_cn AS "bannerAdsPictureUrlCn"
         FROM banner_ads WHERE brand = $1`,
      [brand],
    );
    return row ?? null;
  },
};
