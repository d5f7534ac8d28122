import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { I18nProvider } from 'react-aria-components';
import { GlobalDialogs } from './GlobalDialogs';
import { brand, publicCodePath } from '../lib/config';
import { i18n } from '../lib/i18n';
import { onQuotaExceeded } from '../lib/storage';
import { revokeSession } from '../shared/api/session';
import { onSessionReset, useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { LoginScreen } from '../features/auth/LoginScreen';
import { Loading } from '../components/Spinner';
import { lazyNamed } from '../components/lazy';
import { DemoBanner } from './DemoBanner';
import { MobileNotice } from './MobileNotice';
import { firstTab } from './visibility';

// The entry holds what the login screen shows; the front pages and the signed-in shell (with every
// tab, panel and dialog behind it) are chunks of their own, loaded when shown (docs/architecture.md,
// "Code splitting").
const AppShell = lazyNamed(() => import('./AppShell'), 'AppShell', { entry: true });
const FrontPage = lazyNamed(() => import('../features/front/FrontPage'), 'FrontPage');
const AppListFrontPage = lazyNamed(() => import('../features/front/AppListFrontPage'), 'AppListFrontPage');
const PublicCodePage = lazyNamed(() => import('../features/codes/PublicCodePage'), 'PublicCodePage');
const QueryScope = lazyNamed(() => import('../components/QueryScope'), 'QueryScope', { entry: true });

onSessionReset(() => useUi.getState().reset());

/**
 * Anonymous visitors: the front page at `/` on the applist brand, our public page of an app and
 * country at `/receive/<app>/<country>`, the login screen elsewhere.
 */
function Anonymous() {
  const [publicCodes] = useState(() => publicCodePath(window.location.pathname));
  const [front, setFront] = useState(
    () =>
      window.location.pathname === '/front' ||
      !!publicCodes ||
      (brand.frontPage === 'applist' && window.location.pathname === '/'),
  );
  const setFrontPage = useUi((s) => s.setFrontPage);
  useEffect(() => {
    setFrontPage(front);
    const path = front ? '/front' : '/login';
    const keep = front && (window.location.pathname === '/' || publicCodes);
    if (window.location.pathname !== path && !keep)
      window.history.replaceState(null, '', path + window.location.search);
    return () => setFrontPage(false);
  }, [front, publicCodes, setFrontPage]);
  useEffect(() => {
    document.title = front ? brand.name[i18n.language === 'zh' ? 'zh' : 'en'] : i18n.t('front.login');
  }, [front]);
  if (!front)
    return (
      <LoginScreen
        onShowFront={() => setFront(true)}
        onSignedIn={() => useUi.getState().navigate(firstTab(), 'profile', { replace: true })}
      />
    );
  return (
    <QueryScope>
      {publicCodes ? (
        <PublicCodePage app={publicCodes.app} country={publicCodes.country} onLogin={() => setFront(false)} />
      ) : brand.frontPage === 'applist' ? (
        <AppListFrontPage onLogin={() => setFront(false)} />
      ) : (
        <FrontPage onLogin={() => setFront(false)} />
      )}
    </QueryScope>
  );
}

function Root() {
  const token = useSession((s) => s.token);
  const { t } = useTranslation();
  useEffect(() => {
    onQuotaExceeded(() => useUi.getState().showAlert(t('dialogs.storageCleared')));
  }, [t]);

  const logout = () => {
    // revoke on the server; the local session ends whatever the answer
    void revokeSession().catch(() => {});
    useSession.getState().logout();
    window.history.replaceState(null, '', '/login');
  };

  return (
    <>
      <DemoBanner />
      <MobileNotice />
      <Suspense fallback={<Loading label={t('app.loading')} />}>
        {token ? (
          <QueryScope>
            <AppShell />
          </QueryScope>
        ) : (
          <Anonymous />
        )}
      </Suspense>
      <GlobalDialogs onLogout={logout} />
    </>
  );
}

/**
 * react-aria's own words (screen-reader texts such as "Dismiss", "245 options available.", and
 * number/date formats) follow the app's language, not the browser's (issue 13 §3.11).
 */
export function AriaLocale({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  return <I18nProvider locale={instance.language === 'zh' ? 'zh-CN' : 'en-US'}>{children}</I18nProvider>;
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <AriaLocale>
        <Root />
      </AriaLocale>
    </I18nextProvider>
  );
}
