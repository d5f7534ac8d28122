import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Spinner';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { chatId, useAccountInfo, useBalance } from './api';
import { panelViews } from './panels';

/** Profile (spec 000 §2): balance, the account's e-mail and phone. */
export default function ProfilePanel() {
  const { t } = useTranslation();
  const info = useAccountInfo();
  const balance = useBalance();
  const navigate = useUi((s) => s.navigate);
  if (info.isPending || balance.isPending) return <Loading label={t('app.loading')} />;
  if (info.isError || balance.isError) {
    return (
      <div className="error-state" role="alert">
        <p>{t('errors.loadFailed')}</p>
        <Button className="button" onPress={() => void Promise.all([info.refetch(), balance.refetch()])}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }
  const a = info.data;
  return (
    <section className="panel" aria-labelledby="profile-title">
      <h2 id="profile-title">{t('profile.title')}</h2>
      <div className="balance-card">
        <div>
          <div className="muted">{t('profile.balance')}</div>
          <div className="balance-amount" data-testid="balance">
            {money(balance.data.balance)}
          </div>
        </div>
        {panelViews.credit && (
          <Button className="button primary" onPress={() => navigate('tabAccount', 'credit')}>
            {t('profile.recharge')}
          </Button>
        )}
      </div>
      <dl className="details">
        <dt>{t('profile.userId')}</dt>
        <dd>{chatId(a)}</dd>
        <dt>{t('profile.email')}</dt>
        <dd>{a.email || <span className="muted">{t('profile.notSet')}</span>}</dd>
        <dt>{t('profile.phone')}</dt>
        <dd>{a.phone ? `+${a.telCode} ${a.phone}` : <span className="muted">{t('profile.notSet')}</span>}</dd>
      </dl>
    </section>
  );
}
