import type { ReactNode } from 'react';
import { Button, Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';

export interface DialogProps {
  title: ReactNode;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Buttons row. */
  footer?: ReactNode;
  width?: number;
  /** `alertdialog` for messages that need an answer. */
  role?: 'dialog' | 'alertdialog';
  /** Clicking outside or pressing Escape closes it. */
  dismissable?: boolean;
  showClose?: boolean;
  className?: string;
}

/** The modal itself (react-aria's overlay, focus trap and dismissal), loaded by `Dialog` when first opened. */
export function DialogFrame({
  title,
  isOpen,
  onClose,
  children,
  footer,
  width = 420,
  role = 'dialog',
  dismissable = true,
  showClose = true,
  className,
}: DialogProps) {
  const { t } = useTranslation();
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      isDismissable={dismissable}
      isKeyboardDismissDisabled={!dismissable}
      className="modal-overlay"
    >
      <Modal className="modal" style={{ width: `min(${width}px, calc(100vw - 32px))` }}>
        <AriaDialog role={role} className={`dialog ${className ?? ''}`}>
          <header className="dialog-header">
            <Heading slot="title" className="dialog-title">
              {title}
            </Heading>
            {showClose && (
              <Button className="icon-button" aria-label={t('app.close')} onPress={onClose}>
                <span aria-hidden="true">×</span>
              </Button>
            )}
          </header>
          <div className="dialog-body">{children}</div>
          {footer && <footer className="dialog-footer">{footer}</footer>}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
