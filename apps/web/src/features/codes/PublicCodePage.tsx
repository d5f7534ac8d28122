import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { Loading, LoadFailed } from '../../components/Spinner';
import { brand } from '../../lib/config';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useAnonymousNumbers, usePublicCatalogue } from './api/codes';
import { saveCodeIntent } from './intent';
import './codes.css';

/**
 * Our public page of one app and country (`/receive/<app>/<country>`, where the applist front page's
 * Next goes; CODES_PUBLIC_PAGE_URL): the numbers free for the app now, anonymously. Getting one needs
 * a login: the dialog says so, and after the login the verification page opens on that app and country.
 */
export function PublicCodePage({
  app,
  country,
  onLogin,
}: {
  app: string;
  country: string;
  onLogin: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const name = brand.name[lang];
  const [ask, setAsk] = useState<string | null>(null);
  const catalogue = usePublicCatalogue(lang);
  const numbers = useAnonymousNumbers(app, country);
  const appName = catalogue.data?.appList.find((a) => a.app === app)?.name ?? app;
  const countryName = catalogue.data?.countrys.find((c) => c.code === country)?.name ?? country;
  const free = (numbers.data?.numbers ?? []).filter((n) => n.canGetNumber);
  const login = () => {
    saveCodeIntent({ app, country, ...(ask && ask !== 'new' ? { number: ask } : {}) });
    setAsk(null);
    onLogin();
  };

  return (
    <div className="front-page">
      <header className="front-top">
        <a className="brand-link" href="/">
          <span className="brand-mark" aria-hidden="true">
            {name.slice(0, 1)}
          </span>
          <span className="brand-name">{name}</span>
        </a>
        <span className="spacer" />
        <LanguageSwitch />
        <Button className="button primary" onPress={onLogin}>
          {t('front.login')}
        </Button>
      </header>
      <main id="main" className="front-main codes-public">
        <h1>{t('codes.publicTitle', { app: appName, country: countryName })}</h1>
        <p className="lead muted">{t('codes.publicLead', { app: appName })}</p>
        {numbers.isPending || catalogue.isPending ? (
          <Loading label={t('app.loading')} />
        ) : numbers.isError ? (
          <LoadFailed onRetry={() => numbers.refetch()} />
        ) : (
          <>
            <div className="codes-actions codes-actions-start">
              <Button className="button primary large" onPress={() => setAsk('new')}>
                {t('codes.newNumber')}
              </Button>
              <a className="link-button" href="/">
                {t('codes.publicOtherApps')}
              </a>
            </div>
            {free.length === 0 ? (
              <p className="codes-empty muted" role="status">
                {t('codes.noNumber')}
              </p>
            ) : (
              <ul className="codes-public-list" aria-label={t('codes.publicNumbers', { app: appName })}>
                {free.slice(0, 30).map((n) => (
                  <li key={n.phone} className="codes-public-row">
                    <span className="codes-number">+{n.phone}</span>
                    <Button className="button" onPress={() => setAsk(n.phone)}>
                      {t('codes.publicGet')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </main>
      <Dialog
        title={t('codes.publicLoginTitle')}
        isOpen={ask !== null}
        onClose={() => setAsk(null)}
        footer={
          <>
            <Button className="button" onPress={() => setAsk(null)}>
              {t('codes.cancel')}
            </Button>
            <Button className="button primary" onPress={login}>
              {t('front.login')}
            </Button>
          </>
        }
      >
        <p>{t('codes.publicLoginText', { app: appName })}</p>
      </Dialog>
    </div>
  );
}
