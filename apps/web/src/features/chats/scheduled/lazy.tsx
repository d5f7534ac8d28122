import { Suspense, type ComponentProps } from 'react';
import { lazyNamed } from '../../../components/lazy';
import type * as DialogModule from './SendLaterDialog';

// the date picker, its calendar and @internationalized/date: a chunk fetched when Send later or Edit
// is first pressed (docs/architecture.md, "Code splitting")
const SendLaterDialog = lazyNamed(() => import('./SendLaterDialog'), 'SendLaterDialog');

/** The Send later dialog, mounted only while open. */
export function SendLater(props: ComponentProps<typeof DialogModule.SendLaterDialog>) {
  if (!props.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <SendLaterDialog {...props} />
    </Suspense>
  );
}
