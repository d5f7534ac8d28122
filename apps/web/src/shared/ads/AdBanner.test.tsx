import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import '../../lib/i18n';
import { AdBannerView, pickAd } from './AdBanner';

const ads = {
  bannerAdsRedirectUrl: 'https://ads.example/en',
  bannerAdsPictureUrl: 'https://ads.example/en.png',
  bannerAdsRedirectUrlCn: 'https://ads.example/zh',
  bannerAdsPictureUrlCn: 'https://ads.example/zh.png',
};

describe('banner ad', () => {
  it('takes the picture and link of the app language, Chinese falling back to English', () => {
    expect(pickAd(ads, 'en')).toEqual({
      picture: 'https://ads.example/en.png',
      link: 'https://ads.example/en',
    });
    expect(pickAd(ads, 'zh')).toEqual({
      picture: 'https://ads.example/zh.png',
      link: 'https://ads.example/zh',
    });
    expect(pickAd({ ...ads, bannerAdsPictureUrlCn: '', bannerAdsRedirectUrlCn: '' }, 'zh')).toEqual({
      picture: 'https://ads.example/en.png',
      link: 'https://ads.example/en',
    });
  });

  it('shows nothing when the operator set none, or the picture does not load', () => {
    const empty = {
      bannerAdsRedirectUrl: '',
      bannerAdsPictureUrl: '',
      bannerAdsRedirectUrlCn: '',
      bannerAdsPictureUrlCn: '',
    };
    expect(pickAd(empty, 'en')).toBeNull();
    expect(pickAd(undefined, 'en')).toBeNull();
    const { container, rerender } = render(<AdBannerView ad={null} />);
    expect(container.innerHTML).toBe('');
    rerender(<AdBannerView ad={pickAd(ads, 'en')} />);
    const link = screen.getByRole('link', { name: 'Advertisement' });
    expect(link.getAttribute('href')).toBe('https://ads.example/en');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    fireEvent.error(screen.getByRole('img', { name: 'Advertisement' }));
    expect(container.innerHTML).toBe('');
  });
});
