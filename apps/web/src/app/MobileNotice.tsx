import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { brand } from '../lib/config';
import { keys, storage } from '../lib/storage';
import { isMobileBrowser } from '../lib/mobile';

/** On a phone, the web client says it is made for desktops (spec 000 §2 "a mobile notice exists"). */
export function MobileNotice() {
  const { t, i18n } = useTranslation();
  const [dismissed, setDismissed] = useState(() => storage.get(keys.mobileNoticeDismissed) === '1');
  if (dismissed || !isMobileBrowser()) return null;
  return (
    <div className="banner mobile-notice" role="region" aria-label={t('mobile.getApp')}>
      <span>{t('mobile.notice', { brand: brand.name[i18n.language === 'zh' ? 'zh' : 'en'] })}</span>
      <Button
        className="icon-button"
        aria-label={t('app.dismiss')}
        onPress={() => {
          storage.set(keys.mobileNoticeDismissed, '1');
          setDismissed(true);
        }}
      >
        <span aria-hidden="true">×</span>
      </Button>
    </div>
  );
}
