import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { refreshBalance } from '../../shared/api/account';
import { handleProfileRequired } from '../../shared/dialogs/billingProfile';
import { refreshCodes } from './api/codes';
import { keepCodeNumber } from './api/keep';

/**
 * Subscribe to keep a verification number (spec 001 §2 dialogs): a confirmation naming the monthly
 * rent, then the thanks dialog with the server's hint; 400001 opens the insufficient-balance dialog.
 */
export function SubscribeButton(p: {
  app: string;
  number: string;
  rent: number;
  isDisabled?: boolean;
  onDone: () => void;
  className?: string;
  /** The confirmation opened from outside (the leave dialog's Subscribe), when given. */
  confirmOpen?: boolean;
  onConfirmOpenChange?: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [ownConfirm, setOwnConfirm] = useState(false);
  const confirm = p.confirmOpen ?? ownConfirm;
  const setConfirm = (open: boolean) => {
    setOwnConfirm(open);
    p.onConfirmOpenChange?.(open);
  };
  const [thanks, setThanks] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const showError = useUi((s) => s.showError);
  const showAlert = useUi((s) => s.showAlert);
  const subscribe = async () => {
    setBusy(true);
    try {
      const res = await keepCodeNumber(p.app, p.number);
      setConfirm(false);
      setThanks(res.subHint);
      void refreshCodes();
      void refreshBalance();
    } catch (e) {
      setConfirm(false);
      if (!isApiError(e)) throw e;
      if (e.retcode === 400001) showError({ kind: 'insufficient', message: e.retmsg });
      else if (e.retcode === 100023) handleProfileRequired(e.data, 'manageNumber');
      else showAlert(e.retmsg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        className={p.className ?? 'button primary'}
        isDisabled={p.isDisabled || busy}
        onPress={() => setConfirm(true)}
      >
        {t('codes.subscribe')}
      </Button>
      <Dialog
        title={t('codes.subscribeTitle')}
        isOpen={confirm}
        onClose={() => setConfirm(false)}
        footer={
          <>
            <Button className="button" onPress={() => setConfirm(false)}>
              {t('codes.cancel')}
            </Button>
            <Button className="button primary" isDisabled={busy} onPress={() => void subscribe()}>
              {t('codes.confirmSubscribe')}
            </Button>
          </>
        }
      >
        <p>{t('codes.subscribeText', { number: `+${p.number}`, rent: money(p.rent) })}</p>
      </Dialog>
      <Dialog
        title={t('codes.thanksTitle')}
        isOpen={thanks !== null}
        onClose={() => {
          setThanks(null);
          p.onDone();
        }}
        role="alertdialog"
        footer={
          <Button
            className="button primary"
            onPress={() => {
              setThanks(null);
              p.onDone();
            }}
          >
            {t('codes.ok')}
          </Button>
        }
      >
        <p>{thanks}</p>
      </Dialog>
    </>
  );
}
