import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { money } from '../../../lib/money';
import { chatId, useAccountInfo, useBalance } from '../../../shared/api/account';
import { ComposeIcon } from './icons';

/** The chat list's profile header (spec 000 §2): user id, balance and New SMS. */
export function ProfileHeader({ onNewSms, canCompose }: { onNewSms: () => void; canCompose: boolean }) {
  const { t } = useTranslation();
  const info = useAccountInfo();
  const balance = useBalance();
  const id = chatId(info.data);
  return (
    <header className="chats-profile">
      <dl className="chats-profile-text">
        <div className="chats-profile-line">
          <dt className="muted">{t('chats.profile.userId')}</dt>
          <dd className="chats-profile-id" data-testid="chat-user-id" title={id}>
            {info.isPending ? '…' : id || '—'}
          </dd>
        </div>
        <div className="chats-profile-line">
          <dt className="muted">{t('chats.profile.balance')}</dt>
          <dd className="chats-profile-balance" data-testid="chat-balance">
            {balance.isPending ? '…' : balance.isError ? '—' : money(balance.data.balance)}
          </dd>
        </div>
      </dl>
      <Button
        className="button primary chats-new"
        onPress={onNewSms}
        isDisabled={!canCompose}
        aria-keyshortcuts="N"
        data-shortcut="newMessage"
      >
        <ComposeIcon />
        {t('chats.profile.newSms')}
      </Button>
    </header>
  );
}
