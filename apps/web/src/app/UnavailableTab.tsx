import { useTranslation } from 'react-i18next';
import type { RailTab } from '@numa/contract';
import { brand } from '../lib/config';

/** A rail tab whose area is not on the web yet: says so, and where to turn instead. */
export function UnavailableTab({ tab }: { tab: RailTab }) {
  const { t, i18n } = useTranslation();
  const name = brand.name[i18n.language === 'zh' ? 'zh' : 'en'];
  const tabName = t(`tabs.${tab}`);
  return (
    <section className="empty-state" aria-labelledby="unavailable-title">
      <h2 id="unavailable-title">{t('rail.unavailableTitle', { tab: tabName })}</h2>
      <p>{t('rail.unavailable', { tab: tabName, brand: name, email: brand.supportEmail })}</p>
    </section>
  );
}
