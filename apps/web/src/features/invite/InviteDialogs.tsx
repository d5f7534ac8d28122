import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { bonusMoney } from '../../lib/money';
import { useSession } from '../../stores/session';
import { useUi } from '../../stores/ui';
import { openVerify } from '../../shared/dialogs/verify';
import { useInviteDialogs } from '../../shared/dialogs/invite';
import '../../components/status.css';

/** The unlock-bonus prompt and the redeem congratulation dialog (global). */
export function InviteDialogs() {
  return (
    <>
      <UnlockBonusPrompt />
      <CongratulationDialog />
    </>
  );
}

/** The unlock-bonus prompt (spec 000 §2): Later, or Set Up Now → verify in updateForUnlockBonus mode. */
function UnlockBonusPrompt() {
  const { t } = useTranslation();
  const isOpen = useInviteDialogs((s) => s.unlockOpen);
  const close = useInviteDialogs((s) => s.closeUnlock);
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      role="alertdialog"
      width={400}
      title={t('redeem.unlockTitle')}
      footer={
        <>
          <Button className="button" onPress={close}>
            {t('redeem.later')}
          </Button>
          <Button
            className="button primary"
            autoFocus
            onPress={() => {
              close();
              openVerify('updateForUnlockBonus');
            }}
          >
            {t('redeem.setUpNow')}
          </Button>
        </>
      }
    >
      <p>{t('redeem.unlockText', { amount: bonusMoney(constants.unlockBonus) })}</p>
    </Dialog>
  );
}

/** After a redemption (spec 001 §2): '0.2 coins were added', Later → profile, Invite → invite. */
function CongratulationDialog() {
  const { t } = useTranslation();
  const bonus = useInviteDialogs((s) => s.bonus);
  const close = useInviteDialogs((s) => s.closeBonus);
  const canInvite = useSession((s) => s.canInvite);
  const navigate = useUi((s) => s.navigate);
  const leave = (panel: 'profile' | 'invite') => {
    close();
    navigate('tabAccount', panel);
  };
  return (
    <Dialog
      isOpen={bonus !== null}
      onClose={() => leave('profile')}
      role="alertdialog"
      width={400}
      title={t('redeem.congratsTitle')}
      footer={
        <>
          <Button className="button" onPress={() => leave('profile')}>
            {t('redeem.later')}
          </Button>
          {canInvite && (
            <Button className="button primary" onPress={() => leave('invite')} autoFocus>
              {t('redeem.invite')}
            </Button>
          )}
        </>
      }
    >
      <div className="status-art done" aria-hidden="true">
        ✓
      </div>
      <p>{t('redeem.congratsText', { amount: bonusMoney(bonus ?? constants.unlockBonus) })}</p>
    </Dialog>
  );
}
