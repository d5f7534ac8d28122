import { useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { endpoints } from '@numa/contract';
import { GlobalDialogs } from '../components/GlobalDialogs';
import { call } from '../lib/api';
import { brand } from '../lib/config';
import { i18n } from '../lib/i18n';
import { queryClient } from '../lib/query';
import { onQuotaExceeded } from '../lib/storage';
import { onSessionReset, useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { LoginScreen } from '../features/auth/LoginScreen';
import { AppListFrontPage } from '../features/front/AppListFrontPage';
import { FrontPage } from '../features/front/FrontPage';
import { AppShell } from './AppShell';
import { MobileNotice } from './MobileNotice';

onSessionReset(() => useUi.getState().reset());

/** Anonymous visitors: the front page at `/` on the applist brand, the login screen elsewhere. */
function Anonymous() {
  const [front, setFront] = useState(() => window.location.pathname === '/front' || (brand.frontPage === 'applist' && window.location.pathname === '/'));
  const setFrontPage = useUi((s) => s.setFrontPage);
  useEffect(() => {
    setFrontPage(front);
    const path = front ? '/front' : '/login';
    if (window.location.pathname !== path && !(front && window.location.pathname === '/')) window.history.replaceState(null, '', path + window.location.search);
    return () => setFrontPage(false);
  }, [front, setFrontPage]);
  useEffect(() => {
    document.title = front ? brand.name[i18n.language === 'zh' ? 'zh' : 'en'] : i18n.t('front.login');
  }, [front]);
  if (!front) return <LoginScreen onShowFront={() => setFront(true)} />;
  return brand.frontPage === 'applist' ? <AppListFrontPage onLogin={() => setFront(false)} /> : <FrontPage onLogin={() => setFront(false)} />;
}

function Root() {
  const token = useSession((s) => s.token);
  const { t } = useTranslation();
  useEffect(() => {
    onQuotaExceeded(() => useUi.getState().showAlert(t('dialogs.storageCleared')));
  }, [t]);

  const logout = () => {
    // revoke on the server; the local session ends whatever the answer
    void call(endpoints.logout, {}, { silent: true }).catch(() => {});
    useSession.getState().logout();
    window.history.replaceState(null, '', '/login');
  };

  return (
    <>
      <MobileNotice />
      {token ? <AppShell /> : <Anonymous />}
      <GlobalDialogs onLogout={logout} />
    </>
  );
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Root />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
