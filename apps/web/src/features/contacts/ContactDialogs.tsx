import { useMemo, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { BackButton } from '../../components/BackButton';
import { Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { useUi } from '../../stores/ui';
import { useDeleteContacts, useSaveContact } from './api/addressBook';
import { ContactFormFields } from './ContactFormFields';
import {
  emptyForm,
  formOf,
  hasErrors,
  sameForm,
  validateContact,
  type ContactForm,
  type ContactFormErrors,
  type ContactView,
} from './logic';

const reasonOf = (e: unknown) => (isApiError(e) ? e.retmsg : '');

/** The editing state shared by the add/edit modal and the side panel. */
function useContactEditor(id: string | null, initial: ContactForm, onSaved: (saved: ContactView) => void) {
  const { t } = useTranslation();
  const showSnackbar = useUi((s) => s.showSnackbar);
  const [form, setForm] = useState<ContactForm>(initial);
  const [errors, setErrors] = useState<ContactFormErrors | null>(null);
  const save = useSaveContact();
  const dirty = !sameForm(form, initial);

  const change = (next: ContactForm) => {
    setForm(next);
    // once the user tried to save, the messages follow the fields as they change
    if (errors) setErrors(validateContact(next));
  };
  const submit = () => {
    const found = validateContact(form);
    setErrors(found);
    if (hasErrors(found) || save.isPending) return;
    const editing = id !== null;
    save.mutate(
      { ...(id !== null ? { id } : {}), form },
      {
        onSuccess: (saved) => {
          showSnackbar({
            message: t(editing ? 'contacts.updated' : 'contacts.added'),
            tone: 'success',
            duration: constants.snackbarMs,
          });
          onSaved(saved);
        },
        onError: (e) => {
          const reason = reasonOf(e);
          showSnackbar({
            message:
              t(editing ? 'contacts.updateFailed' : 'contacts.addFailed') + (reason ? ` ${reason}` : ''),
            tone: 'error',
            duration: constants.snackbarMs,
          });
        },
      },
    );
  };
  return { form, change, errors, submit, saving: save.isPending, dirty };
}

export interface ContactEditDialogProps {
  /** null: add a new contact. */
  contact: ContactView | null;
  /** Fills the first phone of a new contact (add contact from a chat). */
  prefill?: { telCode: string; number: string };
  defaultTelCode: string;
  onClose: () => void;
  onSaved?: (saved: ContactView) => void;
}

/** The add contact / edit contact modal (spec 000 §2 Contact modals). */
export function ContactEditDialog({
  contact,
  prefill,
  defaultTelCode,
  onClose,
  onSaved,
}: ContactEditDialogProps) {
  const { t } = useTranslation();
  const [initial] = useState<ContactForm>(() => {
    if (contact) return formOf(contact);
    const form = emptyForm(prefill?.telCode ?? defaultTelCode);
    return prefill ? { ...form, phones: form.phones.map((r) => ({ ...r, number: prefill.number })) } : form;
  });
  const editor = useContactEditor(contact?.id ?? null, initial, (saved) => {
    onSaved?.(saved);
    onClose();
  });
  const isEdit = contact !== null;
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={t(isEdit ? 'contacts.editTitle' : 'contacts.addTitle')}
      width={560}
      dismissable={!editor.dirty}
      footer={
        <>
          <Button className="button" onPress={onClose}>
            {t('app.cancel')}
          </Button>
          <Button className="button primary" type="submit" form="contact-form" isDisabled={editor.saving}>
            {editor.saving && <Spinner size={16} />} {t('contacts.save')}
          </Button>
        </>
      }
    >
      <Form
        id="contact-form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          editor.submit();
        }}
      >
        <ContactFormFields
          form={editor.form}
          onChange={editor.change}
          errors={editor.errors}
          defaultTelCode={defaultTelCode}
          autoFocus
        />
      </Form>
    </Dialog>
  );
}

export interface DeleteContactsDialogProps {
  contacts: ContactView[];
  onClose: () => void;
  onDeleted: (ids: string[]) => void;
}

/** The delete contact modal: one contact by name, or the selection by count. */
export function DeleteContactsDialog({ contacts, onClose, onDeleted }: DeleteContactsDialogProps) {
  const { t } = useTranslation();
  const showSnackbar = useUi((s) => s.showSnackbar);
  const del = useDeleteContacts();
  const one = contacts.length === 1 ? contacts[0] : undefined;
  const confirm = () => {
    const ids = contacts.map((c) => c.id);
    del.mutate(ids, {
      onSuccess: () => {
        showSnackbar({
          message: one ? t('contacts.deleted') : t('contacts.deletedMany', { count: ids.length }),
          tone: 'success',
          duration: constants.snackbarMs,
        });
        onDeleted(ids);
        onClose();
      },
      onError: (e) => {
        const reason = reasonOf(e);
        showSnackbar({
          message: t('contacts.deleteFailed') + (reason ? ` ${reason}` : ''),
          tone: 'error',
          duration: constants.snackbarMs,
        });
        onClose();
      },
    });
  };
  return (
    <Dialog
      isOpen
      onClose={onClose}
      role="alertdialog"
      title={t('contacts.deleteTitle', { count: contacts.length })}
      width={400}
      footer={
        <>
          <Button className="button" onPress={onClose} autoFocus>
            {t('app.cancel')}
          </Button>
          <Button className="button danger" onPress={confirm} isDisabled={del.isPending}>
            {del.isPending && <Spinner size={16} />} {t('contacts.delete')}
          </Button>
        </>
      }
    >
      <p>
        {one
          ? t('contacts.deleteOne', { name: one.name })
          : t('contacts.deleteMany', { count: contacts.length })}
      </p>
    </Dialog>
  );
}

export interface ContactPanelProps {
  contact: ContactView;
  defaultTelCode: string;
  onClose: () => void;
  onDelete: (c: ContactView) => void;
}

/** The right-side editor a row click opens (spec 000 §2): the contact's fields, saved in place. */
export function ContactPanel({ contact, defaultTelCode, onClose, onDelete }: ContactPanelProps) {
  const { t } = useTranslation();
  // the panel is keyed by contact (and its last change), so the form starts again for each one
  const initial = useMemo(() => formOf(contact), [contact]);
  const editor = useContactEditor(contact.id, initial, () => {});
  return (
    <aside className="contact-panel" aria-labelledby="contact-panel-title">
      <header className="contact-panel-header">
        <BackButton
          place={t('tabs.contacts')}
          onPress={onClose}
          focusNext={[
            `.contact-row[data-id="${CSS.escape(contact.id)}"] .contact-name`,
            '.contacts-main .search-field input',
          ]}
        />
        <span className={`avatar large c${contact.colour}`} aria-hidden="true">
          {contact.initial}
        </span>
        <h2 id="contact-panel-title" className="grow">
          {contact.name}
        </h2>
        <Button className="icon-button close-button" aria-label={t('app.close')} onPress={onClose}>
          <span aria-hidden="true">×</span>
        </Button>
      </header>
      <Form
        className="contact-panel-body"
        validationBehavior="aria"
        aria-label={t('contacts.editTitle')}
        onSubmit={(e) => {
          e.preventDefault();
          editor.submit();
        }}
      >
        <ContactFormFields
          form={editor.form}
          onChange={editor.change}
          errors={editor.errors}
          defaultTelCode={defaultTelCode}
        />
        <div className="contact-panel-actions">
          <Button className="button danger-outline" onPress={() => onDelete(contact)}>
            {t('contacts.delete')}
          </Button>
          <span className="spacer" />
          <Button className="button primary" type="submit" isDisabled={!editor.dirty || editor.saving}>
            {editor.saving && <Spinner size={16} />} {t('contacts.save')}
          </Button>
        </div>
      </Form>
    </aside>
  );
}
