import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { brand } from '../../../lib/config';
import { money } from '../../../lib/money';
import { chatId, useAccountInfo, useBalance } from '../../account/api';
import { ComposeIcon } from './icons';

/** The chat list's profile header (spec 000 §2): user id, balance and New SMS. */
export function ProfileHeader({ onNewSms, canCompose }: { onNewSms: () => void; canCompose: boolean }) {
  const { t, i18n } = useTranslation();
  const info = useAccountInfo();
  const balance = useBalance();
  const id = chatId(info.data);
  const unit = brand.currency.symbol ? '' : ` ${brand.currency.label[i18n.language === 'zh' ? 'zh' : 'en']}`;
  return (
    <header className="chats-profile">
      <div className="chats-profile-text">
        <div className="chats-profile-id">
          <span className="muted">{t('chats.profile.userId')}</span>{' '}
          <span data-testid="chat-user-id">{info.isPending ? '…' : id || '—'}</span>
        </div>
        <div className="chats-profile-balance">
          <span className="muted">{t('chats.profile.balance')}</span>{' '}
          <strong data-testid="chat-balance">
            {balance.isPending ? '…' : balance.isError ? '—' : `${money(balance.data.balance)}${unit}`}
          </strong>
        </div>
      </div>
      <Button className="button primary chats-new" onPress={onNewSms} isDisabled={!canCompose}>
        <ComposeIcon />
        {t('chats.profile.newSms')}
      </Button>
    </header>
  );
}
