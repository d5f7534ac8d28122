import { useState } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { Loading, Spinner, LoadFailed } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { bonusMoney } from '../../lib/money';
import { refreshAccount, useAccountInfo } from '../../shared/api/account';
import { useInviteDialogs } from '../../shared/dialogs/invite';
import { openVerify, useVerifyModal } from '../../shared/dialogs/verify';
import { redeemInviteCode, useInviter } from './api/invite';
import './invite.css';
import { useOneAtATime } from '../../lib/oneAtATime';

/**
 * Redeem code (spec 001 §2): one input and a button, disabled when the code is empty or the account
 * cannot set an inviter. Without an account phone the entry is disabled and the unlock-bonus prompt
 * offers to set one up. A success shows the (global) congratulation dialog.
 */
export default function RedeemCodePanel() {
  const { t } = useTranslation();
  const info = useAccountInfo();
  const inviter = useInviter();
  const openUnlock = useInviteDialogs((s) => s.openUnlock);
  const showBonus = useInviteDialogs((s) => s.showBonus);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const hasPhone = !!info.data?.phone;
  // the unlock-bonus prompt opens on the user's action (Redeem without a phone), never by itself when
  // the panel shows (issue 13 §3.6)
  const redeem = useOneAtATime({
    mutationFn: redeemInviteCode,
    onSuccess: async (res) => {
      showBonus(res.bonus);
      setCode('');
      await refreshAccount();
    },
    onError: (e) => {
      // the global 100025 handler opened the plain update mode: this one lands back here after
      if (isApiError(e) && e.retcode === 100025) {
        useVerifyModal.getState().close();
        openVerify('updateForUnlockBonus');
      }
      setError(isApiError(e) ? e.retmsg : t('errors.generic'));
    },
  });

  if (info.isPending || inviter.isPending) return <Loading label={t('app.loading')} />;
  if (info.isError || inviter.isError) {
    return <LoadFailed onRetry={() => Promise.all([info.refetch(), inviter.refetch()])} />;
  }

  const canSetInviter = hasPhone && inviter.data.canSetInviter;
  const submit = () => {
    setError(null);
    const v = code.trim();
    if (v && !hasPhone) {
      openUnlock();
      return;
    }
    if (!v || !canSetInviter || redeem.isPending) return;
    if (!/^[A-Za-z0-9]{4,32}$/.test(v)) {
      setError(t('redeem.invalid'));
      return;
    }
    redeem.mutate(v);
  };

  return (
    <section className="panel redeem-panel" aria-labelledby="redeem-title">
      <h2 id="redeem-title">{t('redeem.title')}</h2>
      <p className="muted">{t('redeem.lead', { amount: bonusMoney(constants.unlockBonus) })}</p>
      {!hasPhone && (
        <div className="notice unlock-notice">
          <p>{t('redeem.needPhone', { amount: bonusMoney(constants.unlockBonus) })}</p>
          <Button className="button primary" onPress={() => openVerify('updateForUnlockBonus')}>
            {t('redeem.setUpNow')}
          </Button>
        </div>
      )}
      {hasPhone && !inviter.data.canSetInviter && <p className="notice">{t('redeem.alreadyRedeemed')}</p>}
      <Form
        className="redeem-form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField
          className="field grow"
          value={code}
          onChange={setCode}
          isInvalid={!!error}
          isDisabled={hasPhone && !inviter.data.canSetInviter}
        >
          <Label className="field-label">{t('redeem.code')}</Label>
          <Input className="input" autoComplete="off" maxLength={32} placeholder={t('redeem.placeholder')} />
          <FieldError className="field-error">{error}</FieldError>
        </TextField>
        <Button
          type="submit"
          className="button primary"
          isDisabled={!code.trim() || (hasPhone && !canSetInviter) || redeem.isPending}
        >
          {redeem.isPending && <Spinner size={16} />} {t('redeem.redeem')}
        </Button>
      </Form>
    </section>
  );
}
