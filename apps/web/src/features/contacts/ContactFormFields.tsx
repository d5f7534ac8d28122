import { Fragment } from 'react';
import {
  Button,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  TextArea,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type ContactTag } from '@numa/contract';
import { newPhoneRow, type ContactForm, type ContactFormErrors, type PhoneRow } from './logic';

export interface ContactFormFieldsProps {
  form: ContactForm;
  onChange: (form: ContactForm) => void;
  /** Shown once the user has tried to save. */
  errors: ContactFormErrors | null;
  /** Country code for a new phone row. */
  defaultTelCode: string;
  autoFocus?: boolean;
}

/** The contact's fields (spec 000 §5): name, up to 5 phone rows (label, country code, number), e-mail, company, note. */
export function ContactFormFields({
  form,
  onChange,
  errors,
  defaultTelCode,
  autoFocus,
}: ContactFormFieldsProps) {
  const { t } = useTranslation();
  const err = (key: string | undefined) => (key ? t(`contacts.errors.${key}`) : undefined);
  const setRow = (key: string, patch: Partial<PhoneRow>) =>
    onChange({ ...form, phones: form.phones.map((r) => (r.key === key ? { ...r, ...patch } : r)) });

  return (
    <div className="contact-fields">
      <TextField
        className="field"
        value={form.name}
        onChange={(name) => onChange({ ...form, name })}
        isInvalid={!!errors?.name}
        autoFocus={autoFocus}
        isRequired
      >
        <Label className="field-label">{t('contacts.name')}</Label>
        <Input className="input" maxLength={40} autoComplete="off" />
        <FieldError className="field-error">{err(errors?.name)}</FieldError>
      </TextField>

      <fieldset className="phone-rows">
        <legend className="field-label">{t('contacts.phones')}</legend>
        <div className="phone-grid">
          {/* the column titles are the inputs' names (each input carries it as its label) */}
          <span className="phone-col" aria-hidden="true">
            {t('contacts.tag')}
          </span>
          <span className="phone-col" aria-hidden="true">
            {t('contacts.countryCode')}
          </span>
          <span className="phone-col" aria-hidden="true">
            {t('contacts.phone')}
          </span>
          <span />
          {form.phones.map((row) => {
            const e = errors?.phones[row.key];
            return (
              <Fragment key={row.key}>
                <Select
                  className="tag-field"
                  selectedKey={row.tag || null}
                  onSelectionChange={(k) => setRow(row.key, { tag: k as ContactTag })}
                  isInvalid={!!e?.tag}
                  aria-label={t('contacts.tag')}
                >
                  <Button className="input select-button">
                    <SelectValue>{({ selectedText }) => selectedText || t('contacts.tag')}</SelectValue>
                    <span aria-hidden="true">▾</span>
                  </Button>
                  <FieldError className="field-error">{err(e?.tag)}</FieldError>
                  <Popover className="popover">
                    <ListBox className="listbox">
                      {constants.contactTags.map((tag) => (
                        <ListBoxItem
                          key={tag}
                          id={tag}
                          className="listbox-item"
                          textValue={t(`contacts.tags.${tag}`)}
                        >
                          {t(`contacts.tags.${tag}`)}
                        </ListBoxItem>
                      ))}
                    </ListBox>
                  </Popover>
                </Select>
                <TextField
                  className="telcode-field"
                  value={row.telCode}
                  onChange={(v) => setRow(row.key, { telCode: v.replace(/[^\d+]/g, '').slice(0, 5) })}
                  isInvalid={!!e?.telCode}
                  aria-label={t('contacts.countryCode')}
                >
                  <div className="prefixed">
                    <span aria-hidden="true">+</span>
                    <Input className="input" inputMode="numeric" maxLength={5} autoComplete="off" />
                  </div>
                  <FieldError className="field-error">{err(e?.telCode)}</FieldError>
                </TextField>
                <TextField
                  className="number-field"
                  type="tel"
                  value={row.number}
                  onChange={(v) => setRow(row.key, { number: v })}
                  isInvalid={!!e?.number}
                  aria-label={t('contacts.phone')}
                >
                  <Input
                    className="input"
                    inputMode="tel"
                    placeholder={t('contacts.phone')}
                    maxLength={24}
                    autoComplete="off"
                    data-testid="phone-number"
                  />
                  <FieldError className="field-error">{err(e?.number)}</FieldError>
                </TextField>
                <Button
                  className="icon-button remove-phone"
                  aria-label={t('contacts.removePhone')}
                  isDisabled={form.phones.length === 1}
                  onPress={() => onChange({ ...form, phones: form.phones.filter((r) => r.key !== row.key) })}
                >
                  <span aria-hidden="true">−</span>
                </Button>
              </Fragment>
            );
          })}
        </div>
        <Button
          className="link-button"
          isDisabled={form.phones.length >= constants.contactPhonesMax}
          onPress={() => onChange({ ...form, phones: [...form.phones, newPhoneRow(defaultTelCode)] })}
        >
          {t('contacts.addPhone')}
        </Button>
        {form.phones.length >= constants.contactPhonesMax && (
          <p className="muted small">{t('contacts.phonesMax', { n: constants.contactPhonesMax })}</p>
        )}
      </fieldset>

      <TextField
        className="field"
        type="email"
        value={form.email}
        onChange={(email) => onChange({ ...form, email })}
        isInvalid={!!errors?.email}
      >
        <Label className="field-label">{t('contacts.email')}</Label>
        <Input className="input" autoComplete="off" maxLength={254} />
        <FieldError className="field-error">{err(errors?.email)}</FieldError>
      </TextField>
      <TextField
        className="field"
        value={form.companyName}
        onChange={(companyName) => onChange({ ...form, companyName })}
        isInvalid={!!errors?.companyName}
      >
        <Label className="field-label">{t('contacts.company')}</Label>
        <Input className="input" autoComplete="off" maxLength={40} />
        <FieldError className="field-error">{err(errors?.companyName)}</FieldError>
      </TextField>
      <TextField
        className="field"
        value={form.note}
        onChange={(note) => onChange({ ...form, note })}
        isInvalid={!!errors?.note}
      >
        <Label className="field-label">{t('contacts.note')}</Label>
        <TextArea className="input textarea" rows={3} maxLength={200} />
        <FieldError className="field-error">{err(errors?.note)}</FieldError>
      </TextField>
    </div>
  );
}
