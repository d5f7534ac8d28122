import type { BannerAds, BrandId } from '@numa/contract';
import type { Q } from '../db';

export const adsRepo = {
  /** The brand's banner ad, or null when the brand shows none. */
  async ofBrand(q: Q, brand: BrandId): Promise<BannerAds | null> {
    const row = await q
      .selectFrom('banner_ads')
      .select([
        'redirect_url as bannerAdsRedirectUrl',
        'picture_url as bannerAdsPictureUrl',
        'redirect_url_cn as bannerAdsRedirectUrlCn',
        'picture_url_cn as bannerAdsPictureUrlCn',
      ])
      .where('brand', '=', brand)
      .executeTakeFirst();
    return row ?? null;
  },
};
