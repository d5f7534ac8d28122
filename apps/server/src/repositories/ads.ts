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

  /** Sets the brand's banner ad (the operator's); null removes it (the brand then shows none). */
  async set(q: Q, brand: BrandId, ad: BannerAds | null): Promise<void> {
    if (!ad) {
      await q.deleteFrom('banner_ads').where('brand', '=', brand).execute();
      return;
    }
    const row = {
      redirect_url: ad.bannerAdsRedirectUrl,
      picture_url: ad.bannerAdsPictureUrl,
      redirect_url_cn: ad.bannerAdsRedirectUrlCn,
      picture_url_cn: ad.bannerAdsPictureUrlCn,
    };
    await q
      .insertInto('banner_ads')
      .values({ brand, ...row })
      .onConflict((oc) => oc.column('brand').doUpdateSet(row))
      .execute();
  },
};
