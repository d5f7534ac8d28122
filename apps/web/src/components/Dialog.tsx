import { Suspense } from 'react';
import type { DialogProps } from './DialogFrame';
import { lazyNamed } from './lazy';

export type { DialogProps };

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
