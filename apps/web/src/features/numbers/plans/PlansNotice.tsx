import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { brand } from '../../../lib/config';
import './plans.css';

/** The numa notice that points to the US cell phone plan banner (spec 001 §2 Number management). */
export function PlansNotice({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  if (brand.id !== 'numa') return null;
  return (
    <div className="plans-notice-banner" role="note">
      <p>{t('plans.notice')}</p>
      <Button className="button primary" onPress={onOpen}>
        {t('plans.noticeButton')}
      </Button>
    </div>
  );
}
