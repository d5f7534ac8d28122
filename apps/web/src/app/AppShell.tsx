import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../components/Spinner';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { currentLanguageCode, retcodeText } from '../lib/i18n';
import { tabViews } from './areas';
import { Rail, unreadLabel } from './Rail';
import { UnavailableTab } from './UnavailableTab';
import { tabs } from './visibility';
import { useTokenRefresh } from './useTokenRefresh';
import { AccountDialogs } from '../features/account/AccountDialogs';

/** Signed in: the rail and the current tab (spec 000 §2 App shell). */
export function AppShell() {
  const { t, i18n } = useTranslation();
  const tab = useUi((s) => s.tab);
  const unread = useUi((s) => s.unread);
  const navigate = useUi((s) => s.navigate);
  const kicked = useSession((s) => s.kicked);
  const token = useSession((s) => s.token);
  useTokenRefresh();

  // messages arrive (unread counts, sound, notifications, the title) whichever tab is open
  useEffect(() => {
    if (!token) return;
    if (tabs.includes('chats')) {
      void import('../features/chats/state/service').then((m) => m.getChatService());
      return;
    }
    // a brand without chats (jiema) still hears its balance (a paid top-up's dialog, a code's charge)
    // and the server's session codes on the real-time channel; after a reconnect the balance is read
    // again (events missed while away)
    let socket: { close(): void } | null = null;
    let closed = false;
    void Promise.all([import('../lib/socket'), import('../lib/balance'), import('../lib/query')]).then(
      ([{ openChatSocket }, { balanceKey }, { queryClient }]) => {
        if (closed) return;
        socket = openChatSocket(
          { token, languagecode: currentLanguageCode() },
          {
            onMessage() {},
            onState() {},
            onReconnect: () => void queryClient.invalidateQueries({ queryKey: balanceKey }),
          },
        );
      },
    );
    return () => {
      closed = true;
      socket?.close();
    };
  }, [token]);

  // a tab this brand hides is never shown, even from an old link
  const current = tabs.includes(tab) ? tab : tabs[0]!;
  useEffect(() => {
    if (current !== tab) navigate(current, undefined, { replace: true });
  }, [current, tab, navigate]);

  // the page title is the tab name, with the unread count in brackets
  useEffect(() => {
    document.title = `${t(`tabs.${current}`)}${unread > 0 ? ` (${unreadLabel(unread)})` : ''}`;
  }, [current, unread, t, i18n.language]);

  const View = tabViews[current];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Rail />
      <AccountDialogs />
      <main id="main" className="content" tabIndex={-1}>
        {/* every signed-in screen has its h1 (the areas title themselves with h2), issue 13 §3.18 */}
        <h1 className="sr-only">{t(`tabs.${current}`)}</h1>
        {kicked && (
          <div className="banner danger" role="alert">
            {retcodeText(100008)}
          </div>
        )}
        <Suspense fallback={<Loading label={t('app.loading')} />}>
          {View ? <View /> : <UnavailableTab tab={current} />}
        </Suspense>
      </main>
    </div>
  );
}
