import { useDeferredValue, useMemo, useState } from 'react';
import {
  Button,
  Input,
  ListBox,
  ListBoxItem,
  ListLayout,
  SearchField,
  Virtualizer,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { Loading } from '../../components/Spinner';
import { ContactsIcon, SearchIcon } from '../../components/icons';
import { useAddressBook } from './api/addressBook';
import type { ChatPerson } from './chatPerson';
import { formatPhone } from './phone';
import { searchContacts } from './logic';
import './contacts.css';

interface PickerItem {
  id: string;
  name: string;
  phone: string;
  telCode: string;
  shortPhone: string;
  tag: string;
  colour: number;
  initial: string;
}

/**
 * The new-chat form's contact picker (spec 000 §2, §4 "Pick a number or a contact"): a searchable
 * list with one entry per phone of each contact, virtualised like the contacts list.
 */
export default function ContactPicker({
  onPick,
  isDisabled,
}: {
  onPick(person: ChatPerson): void;
  isDisabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button className="button contact-picker-button" onPress={() => setOpen(true)} isDisabled={isDisabled}>
        <ContactsIcon width={18} height={18} /> {t('contacts.pickContact')}
      </Button>
      {open && (
        <PickerDialog
          onClose={() => setOpen(false)}
          onPick={(p) => {
            setOpen(false);
            onPick(p);
          }}
        />
      )}
    </>
  );
}

function PickerDialog({ onClose, onPick }: { onClose: () => void; onPick(person: ChatPerson): void }) {
  const { t } = useTranslation();
  const book = useAddressBook();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const items = useMemo<PickerItem[]>(() => {
    const list = searchContacts(book.data?.list ?? [], deferred);
    return list.flatMap((c) =>
      c.phoneList.map((p, i) => ({
        id: `${c.id}:${i}`,
        name: c.name,
        phone: p.phone,
        telCode: p.telCode,
        shortPhone: c.shortPhones[i] ?? p.phone,
        tag: p.tag,
        colour: c.colour,
        initial: c.initial,
      })),
    );
  }, [book.data, deferred]);

  return (
    <Dialog isOpen onClose={onClose} title={t('contacts.pickerTitle')} width={460}>
      <SearchField
        className="search-field picker-search"
        value={query}
        onChange={setQuery}
        aria-label={t('contacts.pickerSearch')}
        autoFocus
      >
        <SearchIcon className="search-icon" />
        <Input className="input" placeholder={t('contacts.searchPlaceholder')} />
        <Button className="icon-button clear-search" aria-label={t('contacts.clearSearch')}>
          <span aria-hidden="true">×</span>
        </Button>
      </SearchField>
      {book.isPending ? (
        <Loading label={t('contacts.loading')} />
      ) : items.length === 0 ? (
        <p className="muted picker-empty">
          {deferred.trim() ? t('contacts.noMatch', { q: deferred.trim() }) : t('contacts.pickerEmpty')}
        </p>
      ) : (
        <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: 52 }}>
          <ListBox
            className="contact-picker-list"
            aria-label={t('tabs.contacts')}
            items={items}
            selectionMode="none"
            onAction={(key) => {
              const item = items.find((i) => i.id === key);
              if (item)
                onPick({
                  name: item.name,
                  phone: item.phone,
                  telCode: item.telCode,
                  shortPhone: item.shortPhone,
                });
            }}
          >
            {(item) => {
              const phone = formatPhone(item.phone, item.telCode);
              return (
                <ListBoxItem
                  id={item.id}
                  className="picker-item"
                  textValue={t('contacts.pickerNumber', { name: item.name, phone })}
                >
                  <span className={`avatar c${item.colour}`} aria-hidden="true">
                    {item.initial}
                  </span>
                  <span className="picker-text">
                    <strong>{item.name}</strong>
                    <span className="muted">
                      {phone} · {t(`contacts.tags.${item.tag}`)}
                    </span>
                  </span>
                </ListBoxItem>
              );
            }}
          </ListBox>
        </Virtualizer>
      )}
    </Dialog>
  );
}
