import { useMemo, useState } from 'react';
import { Button, Input, Label, Radio, RadioGroup, SearchField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/SelectField';
import { Loading, LoadFailed } from '../../components/Spinner';
import { brand, codesPublicPage } from '../../lib/config';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { AppDownloadButton } from '../../components/AppDownload';
import { useAppCatalogue } from './api/apps';

/**
 * The verification-code brand's front page (spec 000 §2, §6): anonymous visitors browse the apps
 * codes can be received for and pick a country; Next goes to our public page of that app and
 * country (PublicCodePage), where getting a number asks to log in.
 */
export function AppListFrontPage({ onLogin }: { onLogin: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const name = brand.name[lang];
  const catalogue = useAppCatalogue(lang);
  const [search, setSearch] = useState('');
  const [app, setApp] = useState<string | null>(null);
  const [country, setCountry] = useState<string | null>(null);

  const apps = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (catalogue.data?.appList ?? []).filter(
      (a) => !q || a.name.toLowerCase().includes(q) || a.app.includes(q),
    );
  }, [catalogue.data, search]);
  const countries = (catalogue.data?.countrys ?? []).filter((c) => c.show);
  const chosenCountry = country ?? countries[0]?.code ?? null;

  // our own public page of the app and country (CODES_PUBLIC_PAGE_URL): a path here opens in place,
  // a full URL of another site of ours in a new tab
  const next = () => {
    if (!app || !chosenCountry) return;
    const url = codesPublicPage(app, chosenCountry);
    if (url.startsWith('/')) window.location.assign(url);
    else window.open(url, '_blank', 'noopener,noreferrer');
  };

  return (
    <div className="front-page">
      <header className="front-top">
        <span className="brand-mark" aria-hidden="true">
          {name.slice(0, 1)}
        </span>
        <span className="brand-name">{name}</span>
        <span className="spacer" />
        <LanguageSwitch />
        <AppDownloadButton className="button" />
        <Button className="button primary" onPress={onLogin}>
          {t('front.login')}
        </Button>
      </header>
      <main id="main" className="front-main">
        <h1>{t('front.applistTitle')}</h1>
        <p className="lead muted">{t('front.applistLead')}</p>
        {catalogue.isPending ? (
          <Loading label={t('app.loading')} />
        ) : catalogue.isError ? (
          <LoadFailed onRetry={() => catalogue.refetch()} />
        ) : (
          <div className="applist">
            <div className="applist-controls">
              <SearchField className="field grow" value={search} onChange={setSearch}>
                <Label className="field-label">{t('front.searchApps')}</Label>
                <Input className="input" />
              </SearchField>
              <SelectField
                label={t('front.country')}
                value={chosenCountry}
                options={countries.map((c) => ({ id: c.code, name: c.name, detail: `+${c.telCode}` }))}
                onChange={setCountry}
              />
            </div>
            {apps.length === 0 ? (
              <p className="empty-state">{t('front.noApps', { q: search })}</p>
            ) : (
              <RadioGroup
                className="app-grid"
                aria-label={t('front.applistTitle')}
                value={app}
                onChange={setApp}
              >
                {apps.map((a) => (
                  <Radio
                    key={a.app}
                    value={a.app}
                    className="app-tile"
                    aria-label={t('front.selectApp', { name: a.name })}
                  >
                    <span className="app-initial" aria-hidden="true">
                      {a.name.slice(0, 1)}
                    </span>
                    <span>{a.name}</span>
                  </Radio>
                ))}
              </RadioGroup>
            )}
            <div className="applist-actions">
              <Button className="button primary large" isDisabled={!app || !chosenCountry} onPress={next}>
                {t('front.next')}
              </Button>
              <span className="muted">{t('front.nextHint')}</span>
            </div>
          </div>
        )}
      </main>
    </div>
  );
}
