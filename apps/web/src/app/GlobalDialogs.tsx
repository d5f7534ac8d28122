import { useEffect } from 'react';
import { Button, ProgressBar } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { openRecharge } from '../shared/recharge';
import { useUi } from '../stores/ui';

/** Alert sheet, snackbar, progress overlay, error / insufficient-balance dialog (spec 000 §2, 001 §2). */
export function GlobalDialogs({ onLogout }: { onLogout: () => void }) {
  return (
    <>
      <AlertSheet />
      <ErrorDialog />
      <LogoutConfirm onLogout={onLogout} />
      <ProgressOverlay />
      <SnackbarHost />
    </>
  );
}

function AlertSheet() {
  const { t } = useTranslation();
  const alert = useUi((s) => s.alert);
  const close = useUi((s) => s.closeAlert);
  return (
    <Dialog
      isOpen={!!alert}
      onClose={close}
      role="alertdialog"
      title={alert?.title ?? t('dialogs.alertTitle')}
      width={380}
      footer={
        <Button className="button primary" onPress={close} autoFocus>
          {t('app.ok')}
        </Button>
      }
    >
      <p className="alert-message">{alert?.message}</p>
    </Dialog>
  );
}

function ErrorDialog() {
  const { t } = useTranslation();
  const error = useUi((s) => s.errorDialog);
  const showError = useUi((s) => s.showError);
  const close = () => showError(null);
  const insufficient = error?.kind === 'insufficient';
  return (
    <Dialog
      isOpen={!!error}
      onClose={close}
      role="alertdialog"
      width={400}
      title={error?.title ?? (insufficient ? t('dialogs.insufficientTitle') : t('dialogs.errorTitle'))}
      footer={
        insufficient ? (
          <>
            <Button className="button" onPress={close}>
              {t('app.back')}
            </Button>
            <Button
              className="button primary"
              autoFocus
              onPress={() => {
                close();
                // from the numbers tab, the top-up returns there (the pay-back URL)
                openRecharge(useUi.getState().tab === 'numbers' ? 'numbers' : null);
              }}
            >
              {t('dialogs.recharge')}
            </Button>
          </>
        ) : (
          <Button className="button primary" onPress={close} autoFocus>
            {t('dialogs.errorOkay')}
          </Button>
        )
      }
    >
      <p className="alert-message">
        {error?.message || (insufficient ? t('dialogs.insufficientDefault') : t('errors.generic'))}
      </p>
    </Dialog>
  );
}

function LogoutConfirm({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  const open = useUi((s) => s.confirmLogout);
  const setOpen = useUi((s) => s.setConfirmLogout);
  return (
    <Dialog
      isOpen={open}
      onClose={() => setOpen(false)}
      role="alertdialog"
      width={380}
      title={t('dialogs.logoutTitle')}
      footer={
        <>
          <Button className="button" onPress={() => setOpen(false)} autoFocus>
            {t('app.cancel')}
          </Button>
          <Button
            className="button danger"
            onPress={() => {
              setOpen(false);
              onLogout();
            }}
          >
            {t('dialogs.logoutConfirm')}
          </Button>
        </>
      }
    >
      <p>{t('dialogs.logoutMessage')}</p>
    </Dialog>
  );
}

function ProgressOverlay() {
  const { t } = useTranslation();
  const progress = useUi((s) => s.progress);
  if (!progress) return null;
  return (
    <div className="progress-overlay" role="presentation">
      <ProgressBar
        className="progress-card"
        aria-label={progress.label || t('dialogs.progress')}
        {...(progress.value === undefined ? { isIndeterminate: true } : { value: progress.value })}
      >
        {({ percentage }) => (
          <>
            <span className="spinner" aria-hidden="true">
              <span />
            </span>
            <span>{progress.label || t('dialogs.progress')}</span>
            {progress.value !== undefined && (
              <span className="progress-track" aria-hidden="true">
                <span className="progress-fill" style={{ width: `${percentage ?? 0}%` }} />
              </span>
            )}
          </>
        )}
      </ProgressBar>
    </div>
  );
}

function SnackbarHost() {
  const { t } = useTranslation();
  const snackbar = useUi((s) => s.snackbar);
  const closeSnackbar = useUi((s) => s.closeSnackbar);
  useEffect(() => {
    if (!snackbar || snackbar.duration === 0) return;
    const timer = window.setTimeout(() => closeSnackbar(snackbar.id), snackbar.duration);
    return () => window.clearTimeout(timer);
  }, [snackbar, closeSnackbar]);
  return (
    <div className="snackbar-region" role="status" aria-live="polite">
      {snackbar && (
        <div className={`snackbar ${snackbar.tone ?? 'info'}`}>
          <span>{snackbar.message}</span>
          {snackbar.action && (
            <Button
              className="link-button"
              onPress={() => {
                snackbar.action?.onAction();
                closeSnackbar(snackbar.id);
              }}
            >
              {snackbar.action.label}
            </Button>
          )}
          {(snackbar.dismissible ?? true) && (
            <Button
              className="icon-button"
              aria-label={t('app.dismiss')}
              onPress={() => closeSnackbar(snackbar.id)}
            >
              <span aria-hidden="true">×</span>
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
