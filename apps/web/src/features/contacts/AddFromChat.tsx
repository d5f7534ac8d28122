import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ContactEditDialog } from './ContactDialogs';
import { useDefaultTelCode } from './useDefaultTelCode';
import type { ChatPerson } from './chatPerson';
import './contacts.css';

/** "Add contact" for a chat partner not in the address book: the add modal with the number filled in. */
export default function AddFromChat({ person }: { person: ChatPerson }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const defaultTelCode = useDefaultTelCode();
  return (
    <>
      <Button className="button add-from-chat" onPress={() => setOpen(true)}>
        <span aria-hidden="true">＋</span> {t('contacts.add')}
      </Button>
      {open && (
        <ContactEditDialog
          contact={null}
          prefill={{ telCode: person.telCode, number: person.shortPhone }}
          defaultTelCode={defaultTelCode}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
