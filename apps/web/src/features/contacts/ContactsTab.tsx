import { SearchIcon } from '../../components/icons';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Input, SearchField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { MenuButton } from '../../components/MenuButton';
import { Loading } from '../../components/Spinner';
import { useUi } from '../../stores/ui';
import { useAddressBook } from './api/addressBook';
import { ContactEditDialog, ContactPanel, DeleteContactsDialog } from './lazyDialogs';
import { ContactList } from './ContactList';
import { ImportSteps } from './ImportSteps';
import { searchContacts, toRows, type ContactView } from './logic';
import { useDefaultTelCode } from './useDefaultTelCode';
import './contacts.css';

type Modal =
  | { kind: 'add' }
  | { kind: 'edit'; contact: ContactView }
  | { kind: 'delete'; contacts: ContactView[] }
  | null;

/**
 * The contacts tab (spec 000 §2 Contact detail side panel, §5): Add contact on the left; search,
 * the header menu and the selection bar above an A–Z list; the row editor on the right.
 */
export default function ContactsTab() {
  const { t } = useTranslation();
  const book = useAddressBook();
  const showSnackbar = useUi((s) => s.showSnackbar);
  const closeSnackbar = useUi((s) => s.closeSnackbar);
  const defaultTelCode = useDefaultTelCode();

  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [selecting, setSelecting] = useState(false);
  const [panelId, setPanelId] = useState<string | null>(null);
  const [modal, setModal] = useState<Modal>(null);

  const all = useMemo(() => book.data?.list ?? [], [book.data]);
  const shown = useMemo(() => searchContacts(all, deferredQuery), [all, deferredQuery]);
  const rows = useMemo(() => toRows(shown), [shown]);
  const panelContact = panelId ? all.find((c) => c.id === panelId) : undefined;

  // the loading snackbar, with a dismiss button, while the first load pages in (spec 000 §2)
  const firstLoad = book.isFetching && !book.data?.complete;
  const dismissed = useRef(false);
  useEffect(() => {
    if (!firstLoad || dismissed.current) return;
    const id = showSnackbar({ message: t('contacts.loading'), duration: 0, dismissible: true });
    const unsub = useUi.subscribe((s) => {
      if (s.snackbar?.id !== id) dismissed.current = true;
    });
    return () => {
      unsub();
      closeSnackbar(id);
    };
  }, [firstLoad, showSnackbar, closeSnackbar, t]);

  // selection keeps only contacts still listed
  useEffect(() => {
    setSelected((prev) => {
      if (prev.size === 0) return prev;
      const ids = new Set(all.map((c) => c.id));
      const next = new Set([...prev].filter((id) => ids.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [all]);

  const toggle = useCallback((id: string) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const cancelSelection = () => {
    setSelected(new Set());
    setSelecting(false);
  };
  const open = useCallback((c: ContactView) => setPanelId(c.id), []);
  const edit = useCallback((c: ContactView) => setModal({ kind: 'edit', contact: c }), []);
  const askDelete = useCallback((c: ContactView) => setModal({ kind: 'delete', contacts: [c] }), []);
  const inSelection = selecting || selected.size > 0;
  const allShownSelected = shown.length > 0 && shown.every((c) => selected.has(c.id));

  let body;
  if (book.isPending) body = <Loading label={t('contacts.loading')} />;
  else if (book.isError && !book.data)
    body = (
      <div className="error-state" role="alert">
        <p>{t('contacts.loadFailed')}</p>
        <Button className="button" onPress={() => void book.refetch()}>
          {t('app.retry')}
        </Button>
      </div>
    );
  else if (all.length === 0) body = <ImportSteps onAdd={() => setModal({ kind: 'add' })} />;
  else if (shown.length === 0)
    body = (
      <div className="empty-state" role="status">
        <p>{t('contacts.noMatch', { q: deferredQuery.trim() })}</p>
      </div>
    );
  else
    body = (
      <>
        <div className="contact-columns" aria-hidden="true">
          <span />
          <span>{t('contacts.name')}</span>
          <span>{t('contacts.phone')}</span>
          <span>{t('contacts.email')}</span>
          <span>{t('contacts.company')}</span>
          <span />
        </div>
        <ContactList
          rows={rows}
          selected={selected}
          selecting={inSelection}
          activeId={panelId}
          onToggle={toggle}
          onOpen={open}
          onEdit={edit}
          onDelete={askDelete}
        />
      </>
    );

  return (
    <div className="split contacts" data-pane={panelContact ? 'detail' : 'list'}>
      <nav className="side-menu contacts-side" aria-label={t('tabs.contacts')}>
        <Button className="button primary block" onPress={() => setModal({ kind: 'add' })}>
          <span aria-hidden="true">＋</span> {t('contacts.add')}
        </Button>
        {book.data && all.length > 0 && (
          <p className="muted contacts-count">{t('contacts.count', { count: all.length })}</p>
        )}
      </nav>
      <section className="contacts-main" aria-labelledby="contacts-title">
        <header className="contacts-header">
          <h2 id="contacts-title">{t('tabs.contacts')}</h2>
          <SearchField
            className="search-field"
            value={query}
            onChange={setQuery}
            aria-label={t('contacts.search')}
          >
            <SearchIcon className="search-icon" />
            <Input className="input" placeholder={t('contacts.searchPlaceholder')} />
            <Button className="icon-button clear-search" aria-label={t('contacts.clearSearch')}>
              <span aria-hidden="true">×</span>
            </Button>
          </SearchField>
          <MenuButton
            className="icon-button"
            label={t('contacts.moreMenu')}
            isDisabled={all.length === 0}
            items={[{ id: 'delete', label: t('contacts.delete'), danger: true }]}
            onAction={() => setSelecting(true)}
          >
            <span aria-hidden="true">⋮</span>
          </MenuButton>
        </header>
        {inSelection && all.length > 0 && (
          <div className="selection-bar" role="toolbar" aria-label={t('contacts.selectionBar')}>
            <span aria-live="polite">{t('contacts.selectedCount', { count: selected.size })}</span>
            <span className="spacer" />
            <Button
              className="button"
              onPress={() => setSelected(allShownSelected ? new Set() : new Set(shown.map((c) => c.id)))}
            >
              {allShownSelected ? t('contacts.selectNone') : t('contacts.selectAll')}
            </Button>
            <Button
              className="button danger"
              isDisabled={selected.size === 0}
              onPress={() => setModal({ kind: 'delete', contacts: all.filter((c) => selected.has(c.id)) })}
            >
              {t('contacts.delete')}
            </Button>
            <Button className="button" onPress={cancelSelection}>
              {t('app.cancel')}
            </Button>
          </div>
        )}
        <div className="contacts-body">{body}</div>
      </section>
      {panelContact && (
        <ContactPanel
          key={panelContact.id}
          contact={panelContact}
          defaultTelCode={defaultTelCode}
          onClose={() => setPanelId(null)}
          onDelete={askDelete}
        />
      )}
      {modal?.kind === 'add' && (
        <ContactEditDialog
          contact={null}
          defaultTelCode={defaultTelCode}
          onClose={() => setModal(null)}
          onSaved={(c) => setPanelId(c.id)}
        />
      )}
      {modal?.kind === 'edit' && (
        <ContactEditDialog
          contact={modal.contact}
          defaultTelCode={defaultTelCode}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'delete' && (
        <DeleteContactsDialog
          contacts={modal.contacts}
          onClose={() => setModal(null)}
          onDeleted={(ids) => {
            if (panelId && ids.includes(panelId)) setPanelId(null);
            cancelSelection();
          }}
        />
      )}
    </div>
  );
}
