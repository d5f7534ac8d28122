import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BannerAds } from '@numa/contract';
import { useBannerAd } from '../api/ads';
import { brand } from '../../lib/config';
import './ads.css';

/** The ad of a language: the Chinese picture and link in Chinese (each falling back to English); null when none. */
export function pickAd(ads: BannerAds | undefined, lang: string): { picture: string; link: string } | null {
  if (!ads) return null;
  const zh = lang === 'zh';
  const picture = (zh && ads.bannerAdsPictureUrlCn) || ads.bannerAdsPictureUrl;
  const link = (zh && ads.bannerAdsRedirectUrlCn) || ads.bannerAdsRedirectUrl;
  return picture && link ? { picture, link } : null;
}

/** The picture, linking to the ad's page in a new tab; nothing once the picture fails to load. */
export function AdBannerView({ ad }: { ad: { picture: string; link: string } | null }) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState<string | null>(null);
  if (!ad || broken === ad.picture) return null;
  return (
    <a className="ad-banner" href={ad.link} target="_blank" rel="noopener noreferrer sponsored">
      <img src={ad.picture} alt={t('payments.ad')} onError={() => setBroken(ad.picture)} />
    </a>
  );
}

/**
 * The brand's banner ad (spec 001 §2: the new-number side column and the new-code page's right
 * column, on the brands that show one — wetalk): getAdConfig's picture and link in the app's
 * language. Nothing is rendered while it loads, when the operator set none, or when it fails.
 */
export function AdBanner() {
  const { i18n } = useTranslation();
  const ads = useBannerAd();
  if (!brand.bannerAd) return null;
  return <AdBannerView ad={pickAd(ads.data, i18n.language)} />;
}
