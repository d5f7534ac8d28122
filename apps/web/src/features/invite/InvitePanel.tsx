import { useEffect, useRef, useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Loading, LoadFailed } from '../../components/Spinner';
import { copyText } from '../../lib/clipboard';
import { brand } from '../../lib/config';
import { useUi } from '../../stores/ui';
import { referralLink, useInviteInfo } from './api/invite';
import './invite.css';

const tipIcons = ['★', '♥', '✦'];

/**
 * Invite friends (spec 001 §2): the invite code with a copy button (a share text with the
 * `?referral=` link; a confirmation for 2 s), the earn tips, the hint and the 'more' rules dialog.
 */
export default function InvitePanel() {
  const { t, i18n } = useTranslation();
  const info = useInviteInfo();
  const showAlert = useUi((s) => s.showAlert);
  const [copied, setCopied] = useState(false);
  const [rulesOpen, setRulesOpen] = useState(false);
  const timer = useRef(0);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const name = brand.name[i18n.language === 'zh' ? 'zh' : 'en'];

  if (info.isPending) return <Loading label={t('app.loading')} />;
  if (info.isError) {
    return <LoadFailed onRetry={() => info.refetch()} />;
  }
  const { inviteCode, earnTip, inviteHint, inviteRules } = info.data;
  const link = referralLink(brand.siteUrl, inviteCode, constants.referralQueryParam);
  const shareText = t('invite.shareText', { brand: name, code: inviteCode, link });

  const copy = async () => {
    if (await copyText(shareText)) {
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), constants.inviteCopiedMs);
    } else {
      showAlert(shareText, t('invite.copyManually'));
    }
  };

  return (
    <section className="panel invite-panel" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('invite.title')}</h2>
      <div className="invite-card">
        <div className="grow">
          <div className="muted">{t('invite.yourCode')}</div>
          <div className="invite-code" data-testid="invite-code">
            {inviteCode}
          </div>
          <div className="muted small invite-link">{link}</div>
        </div>
        <Button
          className={`button primary copy-button ${copied ? 'copied' : ''}`}
          onPress={() => void copy()}
        >
          {copied ? (
            <>
              <span aria-hidden="true">✓</span> {t('invite.copied')}
            </>
          ) : (
            t('invite.copy')
          )}
        </Button>
      </div>
      <h3>{t('invite.earnTitle')}</h3>
      <ul className="earn-tips">
        {earnTip.map((tip, i) => (
          <li key={i} className={`earn-tip style${i % 3}`}>
            <span className="earn-icon" aria-hidden="true">
              {tipIcons[i % 3]}
            </span>
            <div>
              <strong>{tip.title}</strong>
              <p>{tip.text}</p>
            </div>
          </li>
        ))}
      </ul>
      {inviteHint && <p className="muted">{inviteHint}</p>}
      <Button className="link-button" onPress={() => setRulesOpen(true)}>
        {t('invite.more')}
      </Button>
      <Dialog
        isOpen={rulesOpen}
        onClose={() => setRulesOpen(false)}
        title={t('invite.rulesTitle')}
        width={480}
        footer={
          <Button className="button primary" onPress={() => setRulesOpen(false)} autoFocus>
            {t('app.ok')}
          </Button>
        }
      >
        <ol className="invite-rules">
          {inviteRules.map((rule, i) => (
            <li key={i}>{rule}</li>
          ))}
        </ol>
        <p className="notice">{t('invite.disqualify')}</p>
        <p className="invite-legal">
          <Link href={brand.termsUrl} target="_blank" rel="noreferrer">
            {t('invite.terms')}
          </Link>
          <Link href={brand.privacyUrl} target="_blank" rel="noreferrer">
            {t('invite.privacy')}
          </Link>
        </p>
      </Dialog>
    </section>
  );
}
