import { useT } from './i18n';

/**
 * A demo deployment (DEMO_MODE=1, issue 18; the server writes `demo` into the page's config): the page
 * opened alone says no real money moves. In the client's frame it shows nothing, since the client's
 * own banner is above the frame.
 */
export function DemoBanner() {
  const { t } = useT();
  if (!window.__NUMA__?.demo || window.top !== window) return null;
  return (
    <div className="plans-demo-banner" role="region" aria-label={t('demo.label')}>
      <strong>{t('demo.title')}</strong> <span>{t('demo.text')}</span>
    </div>
  );
}
