import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

/** The unsaved-changes prompt (spec 000 §2, §5): Discard or Stay on Page. */
export function UnsavedChangesPrompt({
  isOpen,
  onDiscard,
  onStay,
}: {
  isOpen: boolean;
  onDiscard: () => void;
  onStay: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onStay}
      role="alertdialog"
      width={380}
      title={t('billing.unsavedTitle')}
      footer={
        <>
          <Button className="button" onPress={onDiscard}>
            {t('billing.discard')}
          </Button>
          <Button className="button primary" onPress={onStay} autoFocus>
            {t('billing.stay')}
          </Button>
        </>
      }
    >
      <p>{t('billing.unsavedText')}</p>
    </Dialog>
  );
}
