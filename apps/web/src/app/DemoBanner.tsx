import { useTranslation } from 'react-i18next';
import { config } from '../lib/config';

/**
 * A demo deployment (DEMO_MODE=1, issue 18): above every screen — the login page, the front pages,
 * the signed-in shell and so the plans page in it — a brand-coloured banner says no real money moves.
 * A named region, so a screen-reader user finds it among the landmarks.
 */
export function DemoBanner() {
  const { t } = useTranslation();
  if (!config.demo) return null;
  return (
    <div className="demo-banner" role="region" aria-label={t('demo.label')}>
      <strong>{t('demo.title')}</strong> <span>{t('demo.text')}</span>
    </div>
  );
}
