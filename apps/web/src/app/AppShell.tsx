import { Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../components/lazy';
import { Loading } from '../components/Spinner';
import { useSession } from '../stores/session';
import { parsePath, useUi } from '../stores/ui';
import { currentLanguageCode, retcodeText } from '../lib/i18n';
import { useOffline } from '../lib/online';
import { refreshBalance } from '../shared/api/account';
import { tabViews } from './areas';
import { Rail, unreadLabel } from './Rail';
import { UnavailableTab } from './UnavailableTab';
import { tabs } from './visibility';
import { useTokenRefresh } from './useTokenRefresh';
import { AccountDialogs } from './AccountDialogs';
import { useShortcuts } from './useShortcuts';

const ShortcutsDialog = lazyNamed(() => import('./ShortcutsDialog'), 'ShortcutsDialog');

/** The favicon (an SVG data URL) with a red dot in its corner: there are unread messages. */
const withDot = (href: string) =>
  href.startsWith('data:image/svg+xml,') && href.includes('%3C/svg%3E')
    ? href.replace('%3C/svg%3E', "%3Ccircle cx='52' cy='12' r='12' fill='%23dc2626'/%3E%3C/svg%3E")
    : href;

/** Signed in: the rail and the current tab (spec 000 §2 App shell). */
export function AppShell() {
  const { t, i18n } = useTranslation();
  const tab = useUi((s) => s.tab);
  const unread = useUi((s) => s.unread);
  const navigate = useUi((s) => s.navigate);
  const kicked = useSession((s) => s.kicked);
  const token = useSession((s) => s.token);
  useTokenRefresh();
  // keyboard shortcuts (issue 22 §4): `?` lists them; where one moves the focus it is said politely
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [announced, setAnnounced] = useState('');
  const announce = useCallback((text: string) => {
    // the same words twice are read twice: cleared first, set on the next frame
    setAnnounced('');
    requestAnimationFrame(() => setAnnounced(text));
  }, []);
  useShortcuts(() => setShortcutsOpen(true), announce);
  // offline (an offline visit opens the app from the service worker's cache): said on every tab
  const offline = useOffline();

  // messages arrive (unread counts, sound, notifications, the title) whichever tab is open
  useEffect(() => {
    if (!token) return;
    if (tabs.includes('chats')) {
      // the chats with the contacts plugged in (app/chats.ts)
      void import('./chats').then((m) => m.getChatService());
      return;
    }
    // a brand without chats (jiema) still hears its balance (a paid top-up's dialog, a code's charge)
    // and the server's session codes on the real-time channel; after a reconnect the balance is read
    // again (events missed while away)
    let socket: { close(): void } | null = null;
    let closed = false;
    void import('../lib/socket').then(({ openChatSocket }) => {
      if (closed) return;
      socket = openChatSocket(
        { token, languagecode: currentLanguageCode() },
        {
          onMessage() {},
          onState() {},
          onReconnect: () => void refreshBalance(),
        },
      );
    });
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

  // the page title is the tab name, with the unread count in brackets; the installed app's badge
  // (Badging API) has the count and the favicon a dot (issue 23 §4)
  useEffect(() => {
    document.title = `${t(`tabs.${current}`)}${unread > 0 ? ` (${unreadLabel(unread)})` : ''}`;
  }, [current, unread, t, i18n.language]);
  useEffect(() => {
    const nav = navigator as Navigator & {
      setAppBadge?: (n: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    if (unread > 0) void nav.setAppBadge?.(unread).catch(() => {});
    else void nav.clearAppBadge?.().catch(() => {});
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!icon) return;
    const plain = icon.dataset.plain ?? icon.href;
    icon.dataset.plain = plain;
    icon.href = unread > 0 ? withDot(plain) : plain;
  }, [unread]);

  // a notification clicked (or the app opened from one at /chats?chat=…): show what it is about
  useEffect(() => {
    const open = (path: string) => {
      const url = new URL(path, window.location.origin);
      const { tab: to, panel } = parsePath(url.pathname);
      const chat = url.searchParams.get('chat');
      if (chat) {
        navigate('chats');
        void import('./chats').then((m) => m.useChatsUi.getState().select(chat));
      } else if (to) navigate(to, panel ?? undefined);
    };
    const start = new URL(window.location.href);
    if (start.searchParams.has('chat')) {
      const chat = start.searchParams.get('chat')!;
      start.searchParams.delete('chat');
      window.history.replaceState(null, '', start.pathname + start.search);
      open(`/chats?chat=${encodeURIComponent(chat)}`);
    }
    const onOpen = (e: Event) => open(String((e as CustomEvent<string>).detail));
    window.addEventListener('numa:open', onOpen);
    return () => window.removeEventListener('numa:open', onOpen);
  }, [navigate]);

  const View = tabViews[current];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Rail />
      <AccountDialogs />
      <p className="sr-only" role="status" aria-live="polite" data-testid="shortcut-announce">
        {announced}
      </p>
      {shortcutsOpen && (
        <Suspense fallback={null}>
          <ShortcutsDialog isOpen onClose={() => setShortcutsOpen(false)} />
        </Suspense>
      )}
      <main id="main" className="content" tabIndex={-1}>
        {/* every signed-in screen has its h1 (the areas title themselves with h2), issue 13 §3.18 */}
        <h1 className="sr-only">{t(`tabs.${current}`)}</h1>
        {offline && (
          <div className="banner danger app-offline" role="status">
            {t('pwa.offline')}
          </div>
        )}
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
