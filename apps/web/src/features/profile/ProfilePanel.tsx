import type { ReactNode } from 'react';
import { Button, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { constants } from '@numa/contract';
import { ThemeChoice } from '../../components/ThemeChoice';
import { Loading, Spinner, LoadFailed } from '../../components/Spinner';
import { brand } from '../../lib/config';
import { money } from '../../lib/money';
import { formatPhone } from '../../lib/phone';
import { useUi } from '../../stores/ui';
import {
  chatId,
  useAccountInfo,
  useBalance,
  useKycInfo,
  useOwnNumbers,
  useProfile,
} from '../../shared/api/account';
import { useProfileFlow } from '../../shared/dialogs/billingProfile';
import { useIdentityDialog } from '../../shared/dialogs/identity';
import { openVerify } from '../../shared/dialogs/verify';
import '../../components/status.css';
import './profile.css';

type Tone = 'neutral' | 'review' | 'ok' | 'refused';
const profileTone: Record<number, Tone> = {
  [-1]: 'neutral',
  0: 'neutral',
  1: 'review',
  2: 'ok',
  100: 'refused',
};

function StatusChip({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`status-chip ${tone}`}>{children}</span>;
}

function PanelError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="inline-error" role="alert">
      <span>{t('errors.loadFailed')}</span>
      <Button className="link-button" onPress={onRetry}>
        {t('app.retry')}
      </Button>
    </div>
  );
}

/**
 * Profile (spec 000 §2): balance, primary number, e-mail, VIP status (the one dollar brand with the
 * badge), billing information and proof of identity; the red notice when a review refused them.
 */
export default function ProfilePanel() {
  const { t } = useTranslation();
  const info = useAccountInfo();
  const balance = useBalance();
  const profile = useProfile();
  const kyc = useKycInfo();
  const numbers = useOwnNumbers();
  const navigate = useUi((s) => s.navigate);
  const openIdentity = useIdentityDialog((s) => s.open);

  if (info.isPending || balance.isPending) return <Loading label={t('app.loading')} />;
  if (info.isError || balance.isError) {
    return <LoadFailed onRetry={() => Promise.all([info.refetch(), balance.refetch()])} />;
  }
  const a = info.data;
  const p = profile.data;
  const k = kyc.data;
  const refused =
    p?.profileStatus === constants.profileStatus.refused || k?.status === constants.kycStatus.refused;
  const primary = numbers.data?.virtualPhones[0];
  const profileStatus = p?.profileStatus ?? -1;
  const kycStatus = k?.status ?? -1;
  const kycEditable = kycStatus === constants.kycStatus.none || kycStatus === constants.kycStatus.refused;

  return (
    <section className="panel profile-panel" aria-labelledby="profile-title">
      <h2 id="profile-title">{t('profile.title')}</h2>
      <div className="balance-card">
        <div>
          <div className="muted">{t('profile.balance')}</div>
          <div className="balance-amount" data-testid="balance">
            {money(balance.data.balance)}
          </div>
        </div>
        <Button className="button primary" onPress={() => navigate('tabAccount', 'credit')}>
          {t('profile.recharge')}
        </Button>
      </div>

      {refused && (
        <div className="refused-notice" role="alert" data-testid="refused-notice">
          <p>{t('profile.refused')}</p>
          {p?.profileStatus === 100 && p.refuseReason && (
            <p>{t('profile.reasonBilling', { reason: p.refuseReason })}</p>
          )}
          {k?.status === 100 && k.refuseReason && (
            <p>{t('profile.reasonIdentity', { reason: k.refuseReason })}</p>
          )}
          <Link href={`mailto:${brand.supportEmail}`}>{t('profile.contactSupport')}</Link>
        </div>
      )}

      <dl className="details profile-details">
        <dt>{t('profile.userId')}</dt>
        <dd>{chatId(a)}</dd>

        <dt>{t('profile.primaryNumber')}</dt>
        <dd data-testid="primary-number">
          {numbers.isPending ? (
            <Spinner size={16} label={t('app.loading')} />
          ) : primary ? (
            formatPhone(`${primary.telCode}${primary.phone}`, primary.telCode)
          ) : (
            <span className="muted">{t('profile.noNumber')}</span>
          )}
        </dd>

        <dt>{t('profile.phone')}</dt>
        <dd className="with-action">
          <span data-testid="account-phone">
            {a.phone ? (
              formatPhone(`${a.telCode}${a.phone}`, a.telCode)
            ) : (
              <span className="muted">{t('profile.notSet')}</span>
            )}
          </span>
          <Button className="link-button" onPress={() => openVerify('updateFromProfile')}>
            {a.phone ? t('profile.changePhone') : t('profile.verifyPhone')}
          </Button>
        </dd>

        <dt>{t('profile.email')}</dt>
        <dd className="with-action">
          <span data-testid="account-email">
            {a.email || <span className="muted">{t('profile.notSet')}</span>}
          </span>
          <Button className="link-button" onPress={() => openVerify('emailFromProfile')}>
            {a.email ? t('profile.changeEmail') : t('profile.addEmail')}
          </Button>
        </dd>

        {brand.vipBadge && (
          <>
            <dt>{t('profile.vip')}</dt>
            <dd data-testid="vip-status">
              {p?.vipStatus === 1 ? (
                <>
                  <span className="vip-badge">VIP</span>{' '}
                  {p.expireDate
                    ? t('profile.vipUntil', { date: dayjs(p.expireDate).format('YYYY-MM-DD') })
                    : null}
                </>
              ) : (
                <span className="muted">{t('profile.notVip')}</span>
              )}
            </dd>
          </>
        )}
      </dl>

      <div className="profile-cards">
        <section className="profile-card" aria-labelledby="billing-title">
          <header>
            <h3 id="billing-title">{t('profile.billingTitle')}</h3>
            {p && (
              <StatusChip tone={profileTone[profileStatus] ?? 'neutral'}>
                {t(`profile.billingStatus.${profileStatus}`)}
              </StatusChip>
            )}
          </header>
          {profile.isPending ? (
            <Spinner label={t('app.loading')} />
          ) : profile.isError ? (
            <PanelError onRetry={() => void profile.refetch()} />
          ) : (
            <>
              {p && p.firstName ? (
                <address className="billing-summary" data-testid="billing-summary">
                  <strong>
                    {p.firstName} {p.lastName}
                  </strong>
                  <span>{p.address}</span>
                  <span>
                    {p.city}, {p.province} {p.postalCode}
                  </span>
                  <span>{p.country}</span>
                </address>
              ) : (
                <p className="muted">{t('profile.billingEmpty')}</p>
              )}
              <Button
                className="button"
                isDisabled={profileStatus === constants.profileStatus.reviewing}
                onPress={() => useProfileFlow.getState().openUpdate()}
              >
                {t('profile.updateBilling')}
              </Button>
            </>
          )}
        </section>

        <section className="profile-card" aria-labelledby="identity-title">
          <header>
            <h3 id="identity-title">{t('profile.identityTitle')}</h3>
            {k && (
              <StatusChip tone={profileTone[kycStatus] ?? 'neutral'}>
                {t(`profile.identityStatus.${kycStatus}`)}
              </StatusChip>
            )}
          </header>
          {kyc.isPending ? (
            <Spinner label={t('app.loading')} />
          ) : kyc.isError ? (
            <PanelError onRetry={() => void kyc.refetch()} />
          ) : (
            <>
              <p className="muted">{t(kycEditable ? 'profile.identityLead' : 'profile.identityOnFile')}</p>
              <Button className="button" onPress={openIdentity}>
                {kycEditable ? t('profile.uploadIdentity') : t('profile.viewIdentity')}
              </Button>
            </>
          )}
        </section>

        <section className="profile-card" aria-labelledby="appearance-title">
          <header>
            <h3 id="appearance-title">{t('profile.theme.title')}</h3>
          </header>
          <ThemeChoice />
        </section>
      </div>
    </section>
  );
}
