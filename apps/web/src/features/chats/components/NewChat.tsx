import { useMemo, useState } from 'react';
import {
  Button,
  ComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { VirtualPhone } from '@numa/contract';
import { CountryCodePicker } from '../../../components/CountryCodePicker';
import { storage } from '../../../lib/storage';
import { chatSlots } from '../extensions';
import {
  chooseFromEntry,
  formatFullNumber,
  internationalEntry,
  ownFullNumber,
  regionOf,
  type ChosenPerson,
} from '../logic/number';
import type { ChatService } from '../state/service';
import { useChatsUi } from '../state/ui';
import { ConversationBody, MismatchBanner } from './Conversation';

const FROM_KEY = 'numa.chats.from';

/**
 * The new-chat form (spec 000 §2, §4 New-chat flow, §5 Other-party number entry): To with its country
 * code, the contacts area's picker when there is one, and From among the user's own numbers (searchable).
 * As soon as the To is a valid number its conversation shows below; the first message sent opens the
 * chat in the list.
 */
export function NewChat({ service, phones }: { service: ChatService; phones: readonly VirtualPhone[] }) {
  const { t } = useTranslation();
  const select = useChatsUi((s) => s.select);
  const own = useMemo(
    () =>
      phones.map((p) => ({
        id: ownFullNumber(p),
        telCode: p.telCode,
        label: formatFullNumber(ownFullNumber(p)),
      })),
    [phones],
  );
  // 'me': the last number used on this device, else the first (spec 000 §3)
  const [from, setFrom] = useState(() => {
    const kept = storage.get(FROM_KEY);
    return own.find((o) => o.id === kept)?.id ?? own[0]?.id ?? '';
  });
  const fromEntry = own.find((o) => o.id === from) ?? own[0];
  const ownTelCode = fromEntry?.telCode ?? '1';
  const [to, setTo] = useState(() => ({
    region: regionOf(fromEntry?.id ?? '') ?? 'US',
    telCode: ownTelCode,
  }));
  const [entry, setEntry] = useState('');
  const [contact, setContact] = useState<ChosenPerson | null>(null);
  const [touched, setTouched] = useState(false);
  const [picking, setPicking] = useState(false);
  const [fromQuery, setFromQuery] = useState<string | null>(null);

  const result = contact
    ? ({ kind: 'ok', person: contact } as const)
    : chooseFromEntry(entry, to.telCode, ownTelCode);
  const person = result.kind === 'ok' ? result.person : null;
  const personPhone = person?.phone;
  const convo = useMemo(
    () => (personPhone && from ? service.convo(from, personPhone) : null),
    [service, from, personPhone],
  );
  const error =
    touched && result.kind === 'short'
      ? t('chats.newChat.short')
      : result.kind === 'invalid'
        ? t('chats.newChat.invalid', { code: to.telCode })
        : undefined;
  const Picker = chatSlots.ContactPicker;
  const fromItems = fromQuery
    ? own.filter((o) => o.id.includes(fromQuery.replace(/\D/g, '')) || o.label.includes(fromQuery))
    : own;

  const onEntry = (value: string) => {
    setContact(null);
    // a pasted international number sets the country code itself
    const intl = internationalEntry(value);
    if (intl) {
      setTo({ region: intl.region ?? to.region, telCode: intl.telCode });
      setEntry(intl.national);
      return;
    }
    setEntry(value);
  };

  return (
    <section className="conversation new-chat" aria-labelledby="new-chat-title">
      <header className="new-chat-header">
        <div className="new-chat-top">
          <h2 id="new-chat-title">{t('chats.newChat.title')}</h2>
          <Button className="button new-chat-cancel" onPress={() => select(null)}>
            {t('app.cancel')}
          </Button>
        </div>
        <div className="new-chat-fields">
          <div className="new-chat-to">
            <CountryCodePicker
              label={t('chats.newChat.countryCode')}
              region={to.region}
              onChange={(region, telCode) => setTo({ region, telCode })}
            />
            <TextField
              className="field grow"
              type="tel"
              value={contact ? formatFullNumber(contact.phone) : entry}
              onChange={onEntry}
              onBlur={() => setTouched(true)}
              isInvalid={!!error}
              autoFocus
            >
              <Label className="field-label">{t('chats.newChat.to')}</Label>
              <Input
                className="input"
                placeholder={t('chats.newChat.toPlaceholder')}
                inputMode="tel"
                autoComplete="off"
              />
              <FieldError className="field-error">{error}</FieldError>
            </TextField>
            {Picker && (
              <Picker
                onPick={(p) => {
                  setContact(p);
                  const region = regionOf(p.phone);
                  setTo({ region: region ?? to.region, telCode: p.telCode });
                }}
              />
            )}
          </div>
          <ComboBox
            className="field new-chat-from"
            items={fromItems}
            selectedKey={from}
            inputValue={fromQuery ?? fromEntry?.label ?? ''}
            onInputChange={(v) => setFromQuery(v === fromEntry?.label ? null : v)}
            onSelectionChange={(key) => {
              if (typeof key !== 'string') return;
              setFrom(key);
              setFromQuery(null);
              storage.set(FROM_KEY, key);
            }}
            onOpenChange={setPicking}
            onBlur={() => setFromQuery(null)}
            menuTrigger="focus"
          >
            <Label className="field-label">{t('chats.newChat.from')}</Label>
            <div className="combo">
              <Input className="input combo-input" placeholder={t('chats.newChat.fromPlaceholder')} />
              <Button className="combo-button" aria-label={t('chats.newChat.from')}>
                <span aria-hidden="true">▾</span>
              </Button>
            </div>
            <Popover className="popover" placement="bottom start">
              <ListBox
                className="listbox"
                renderEmptyState={() => <p className="listbox-empty">{t('chats.newChat.noMatch')}</p>}
              >
                {(item: (typeof own)[number]) => (
                  <ListBoxItem className="listbox-item" id={item.id} textValue={item.label}>
                    {item.label}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </ComboBox>
        </div>
      </header>
      {person && from && convo ? (
        <>
          <MismatchBanner chatKey={convo.key} own={from} other={person.phone} />
          <ConversationBody
            key={convo.key}
            service={service}
            convo={convo}
            name={person.name || formatFullNumber(person.phone)}
            extraBlock={picking ? t('chats.input.picking') : undefined}
            onSent={() => select(convo.key)}
          />
        </>
      ) : (
        <div className="new-chat-hint empty-state">
          <p>{t('chats.newChat.hint', { code: to.telCode })}</p>
        </div>
      )}
    </section>
  );
}
