import { Suspense, type ReactNode } from 'react';
import { lazyNamed } from './lazy';

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

// react-aria's modal machinery (overlay, focus scope, dismissal) is a chunk fetched the first time any
// dialog opens: no screen needs it before then (docs/architecture.md, "Code splitting").
const DialogFrame = lazyNamed(() => import('./DialogFrame'), 'DialogFrame');

/** A modal dialog: focus trapped, Escape closes, title is its accessible name. Nothing is rendered while closed. */
export function Dialog(props: DialogProps) {
  if (!props.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <DialogFrame {...props} />
    </Suspense>
  );
}
