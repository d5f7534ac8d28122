import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';

export function Spinner({ label, size = 20 }: { label?: string; size?: number }) {
  return (
    <span
      className="spinner"
      role={label ? 'status' : undefined}
      aria-label={label}
      style={{ width: size, height: size }}
    >
      <span aria-hidden="true" />
    </span>
  );
}

/** A whole-area loading state. */
export function Loading({ label }: { label: string }) {
  return (
    <div className="loading-state">
      <Spinner size={28} />
      <p>{label}</p>
    </div>
  );
}

/** A whole-area load failure, with a retry. */
export function LoadFailed({ onRetry }: { onRetry: () => unknown }) {
  const { t } = useTranslation();
  return (
    <div className="error-state" role="alert">
      <p>{t('errors.loadFailed')}</p>
      <Button className="button" onPress={() => void onRetry()}>
        {t('app.retry')}
      </Button>
    </div>
  );
}
