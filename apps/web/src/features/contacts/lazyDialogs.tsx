import { Suspense, type ComponentProps } from 'react';
import { lazyNamed } from '../../components/lazy';
import type * as Dialogs from './ContactDialogs';

// The editor panel and the add / edit / delete dialogs (forms, country-code select, checkboxes) are a
// chunk fetched when one first opens; the list shows without them (docs/architecture.md, "Code splitting").
const load = () => import('./ContactDialogs');
const Panel = lazyNamed(load, 'ContactPanel');
const Edit = lazyNamed(load, 'ContactEditDialog');
const Delete = lazyNamed(load, 'DeleteContactsDialog');

export function ContactPanel(props: ComponentProps<typeof Dialogs.ContactPanel>) {
  return (
    <Suspense fallback={null}>
      <Panel {...props} />
    </Suspense>
  );
}

export function ContactEditDialog(props: ComponentProps<typeof Dialogs.ContactEditDialog>) {
  return (
    <Suspense fallback={null}>
      <Edit {...props} />
    </Suspense>
  );
}

export function DeleteContactsDialog(props: ComponentProps<typeof Dialogs.DeleteContactsDialog>) {
  return (
    <Suspense fallback={null}>
      <Delete {...props} />
    </Suspense>
  );
}
