import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { brand } from '../../lib/config';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { AppDownloadButton } from '../../components/AppDownload';
import { ChatIcon, HashIcon, ShieldIcon } from '../../components/icons';

/** The front page anonymous visitors see (spec 000 §2): what the brand offers, and the way in. */
export function FrontPage({ onLogin }: { onLogin: () => void }) {
  const { t, i18n } = useTranslation();
  const name = brand.name[i18n.language === 'zh' ? 'zh' : 'en'];
  const features = [
    {
      icon: <HashIcon />,
      title: t('front.featureNumbersTitle'),
      text: t('front.featureNumbersText'),
      show: !brand.hiddenTabs.includes('numbers'),
    },
    {
      icon: <ChatIcon />,
      title: t('front.featureChatsTitle'),
      text: t('front.featureChatsText'),
      show: !brand.hiddenTabs.includes('chats'),
    },
    {
      icon: <ShieldIcon />,
      title: t('front.featureCodesTitle'),
      text: t('front.featureCodesText'),
      show: !brand.hiddenTabs.includes('verification'),
    },
  ].filter((f) => f.show);
  return (
    <div className="front-page">
      <header className="front-top">
        <span className="brand-mark" aria-hidden="true">
          {name.slice(0, 1)}
        </span>
        <span className="brand-name">{name}</span>
        <span className="spacer" />
        <LanguageSwitch />
        <Button className="button primary" onPress={onLogin}>
          {t('front.login')}
        </Button>
      </header>
      <main id="main" className="front-main">
        <section className="hero">
          <h1>{t('front.headline')}</h1>
          <p className="lead">{t('front.lead', { brand: name })}</p>
          <div className="hero-actions">
            <Button className="button primary large" onPress={onLogin}>
              {t('front.start')}
            </Button>
            <AppDownloadButton className="button large" />
          </div>
        </section>
        <ul className="features">
          {features.map((f) => (
            <li key={f.title} className="feature">
              <span className="feature-icon">{f.icon}</span>
              <h2>{f.title}</h2>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
