import { useCallback, useEffect, useMemo } from 'react';
import { Button } from 'react-aria-components';
import { Trans, useTranslation } from 'react-i18next';
import { visibleTabs } from '@numa/contract';
import { Loading } from '../../components/Spinner';
import { brand } from '../../lib/config';
import { useUi } from '../../stores/ui';
import { useOwnNumbers } from '../../shared/api/account';
import { useOffline } from '../../lib/online';
import { ChatList } from './components/ChatList';
import { ChatModals } from './components/ChatModals';
import { ComposeIcon, OfflineIcon } from './components/icons';
import { Conversation, NewChat, SearchResults } from './components/panes';
import { SearchBox } from './components/SearchBox';
import { ProfileHeader } from './components/ProfileHeader';
import { useChatService, useChatStatus } from './state/hooks';
import { useChatsUi } from './state/ui';
import './chats.css';

/** No own number yet (spec 000 §2): say so, point to Numbers, give the support address. */
function NoNumber() {
  const { t } = useTranslation();
  const navigate = useUi((s) => s.navigate);
  return (
    <div className="empty-state chats-no-number">
      <span className="chats-empty-icon" aria-hidden="true">
        <ComposeIcon width={28} height={28} />
      </span>
      <h2>{t('chats.noNumber.title')}</h2>
      <p>{t('chats.noNumber.text')}</p>
      {visibleTabs(brand).includes('numbers') && (
        <Button className="button primary" onPress={() => navigate('numbers')}>
          {t('chats.noNumber.getNumber')}
        </Button>
      )}
      <p className="muted">
        <Trans
          i18nKey="chats.noNumber.support"
          values={{ email: brand.supportEmail }}
          components={{ mail: <a href={`mailto:${brand.supportEmail}`} /> }}
        />
      </p>
    </div>
  );
}

function Welcome() {
  const { t } = useTranslation();
  return (
    <div className="empty-state chats-welcome">
      <span className="chats-empty-icon" aria-hidden="true">
        <ComposeIcon width={28} height={28} />
      </span>
      <h2>{t('chats.welcome.title')}</h2>
      <p>{t('chats.welcome.text')}</p>
    </div>
  );
}

/** The Chats tab (spec 000 §2 Chats screen). */
export default function ChatsTab() {
  const { t } = useTranslation();
  const service = useChatService();
  const status = useChatStatus(service);
  const phones = useOwnNumbers();
  const selectedKey = useChatsUi((s) => s.selectedKey);
  const composing = useChatsUi((s) => s.composing);
  const select = useChatsUi((s) => s.select);
  const startNewChat = useChatsUi((s) => s.startNewChat);
  const search = useChatsUi((s) => s.search);
  const offline = useOffline();
  const ownNumbers = useMemo(() => phones.data?.virtualPhones ?? [], [phones.data]);

  // a reconnect while another tab was shown left the list to refresh
  useEffect(() => service.refreshIfStale(), [service]);

  const open = useCallback((key: string) => select(key), [select]);

  if (phones.isPending) return <Loading label={t('app.loading')} />;
  if (phones.isError) {
    return (
      <div className="error-state" role="alert">
        <p>{t('chats.list.loadFailed')}</p>
        <Button className="button" onPress={() => void phones.refetch()}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }

  return (
    <div className="chats">
      {/* offline, the shell's banner says it (lib/online.ts): one banner, one announcement */}
      {!offline && (status.connection === 'disconnected' || status.connection === 'closed') && (
        <div className="banner danger chats-offline" role="status">
          <OfflineIcon />
          <span>{t('chats.banner.disconnected')}</span>
        </div>
      )}
      {ownNumbers.length === 0 ? (
        <NoNumber />
      ) : (
        <div className="chats-split" data-pane={selectedKey || composing ? 'detail' : 'list'}>
          <aside className="chats-side" aria-label={t('chats.list.label')}>
            <ProfileHeader onNewSms={startNewChat} canCompose={ownNumbers.length > 0} />
            <SearchBox />
            {search ? (
              <SearchResults q={search} showOwn={ownNumbers.length > 1} />
            ) : (
              <ChatList service={service} showOwn={ownNumbers.length > 1} onOpen={open} />
            )}
          </aside>
          <div className="chats-main">
            {composing ? (
              <NewChat service={service} phones={ownNumbers} />
            ) : selectedKey ? (
              <Conversation key={selectedKey} service={service} chatKey={selectedKey} />
            ) : (
              <Welcome />
            )}
          </div>
        </div>
      )}
      <ChatModals service={service} />
    </div>
  );
}
