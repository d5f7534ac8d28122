import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { money } from '../../lib/money';
import { openVerify } from '../verify/store';
import { useUnlockPrompt } from './store';

/** The unlock-bonus prompt (spec 000 §2): Later, or Set Up Now → verify in updateForUnlockBonus mode. */
export function UnlockBonusPrompt() {
  const { t } = useTranslation();
  const { isOpen, close } = useUnlockPrompt();
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
      <p>{t('redeem.unlockText', { amount: money(constants.unlockBonus) })}</p>
    </Dialog>
  );
}
