import { useCallback, useEffect, useMemo } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { chatSlots, useContactName } from '../extensions';
import { formatFullNumber, isValidFullNumber, splitFullNumber, type ChosenPerson } from '../logic/number';
import { splitKey } from '../logic/ids';
import type { Convo } from '../state/convo';
import { useChatStatus, useConvoStatus } from '../state/hooks';
import type { ChatService } from '../state/service';
import { useChatsUi } from '../state/ui';
import { BackButton } from '../../../components/BackButton';
import { Avatar } from './Avatar';
import { Composer } from './Composer';
import { GlobeSmallIcon } from './icons';
import { MessageView } from './MessageView';
import { ScheduledList } from '../scheduled/ScheduledList';

export { splitKey };

/** A number the user can text back (a sender id or short code cannot be answered). */
export const canReplyTo = (other: string) => isValidFullNumber(other);

/** What blocks sending (spec 000 §5), as the input box's hint; undefined when nothing does. */
export function useSendBlock(
  service: ChatService,
  convoLoading: boolean,
): { canSend: boolean; hint: string | undefined } {
  const { t } = useTranslation();
  const status = useChatStatus(service);
  if (status.connection === 'disconnected' || status.connection === 'closed')
    return { canSend: false, hint: t('chats.input.offline') };
  if (status.connection === 'connecting') return { canSend: false, hint: t('chats.input.connecting') };
  if (status.listLoading || status.deleting || convoLoading)
    return { canSend: false, hint: t('chats.input.busy') };
  return { canSend: true, hint: undefined };
}

/**
 * The country-mismatch banner (spec 000 §2, §8): the other number's country code differs from the own
 * number's. Closed per chat.
 */
export function MismatchBanner({ chatKey, own, other }: { chatKey: string; own: string; other: string }) {
  const { t } = useTranslation();
  const closed = useChatsUi((s) => !!s.mismatchClosed[chatKey]);
  const closeMismatch = useChatsUi((s) => s.closeMismatch);
  const ownCode = splitFullNumber(own).telCode;
  const otherCode = splitFullNumber(other).telCode;
  if (closed || !ownCode || !otherCode || ownCode === otherCode) return null;
  return (
    <div className="banner chat-banner" role="status">
      <GlobeSmallIcon />
      <span className="grow">{t('chats.banner.mismatch', { own: ownCode, other: otherCode })}</span>
      <Button className="button chat-banner-close" onPress={() => closeMismatch(chatKey)}>
        {t('chats.banner.close')}
      </Button>
    </div>
  );
}

/** A conversation's messages and its input box, for an open chat or the new-chat form's target. */
export function ConversationBody({
  service,
  convo,
  name,
  autoFocus,
  extraBlock,
  onSent,
}: {
  service: ChatService;
  convo: Convo;
  name: string;
  autoFocus?: boolean;
  /** The new-chat form's own reason to block (numbers being picked). */
  extraBlock?: string | undefined;
  onSent?(): void;
}) {
  const { t } = useTranslation();
  // the status alone: a new message renders the message list, not the input box around it
  const status = useConvoStatus(convo, 300);
  const block = useSendBlock(service, status === 'loading');
  const replyable = useMemo(() => canReplyTo(convo.otherFullNumber), [convo]);
  const onRetry = useCallback((smsId: string) => service.retry(convo.key, smsId), [service, convo]);
  const canSend = block.canSend && replyable && !extraBlock;
  const hint = !replyable ? t('chats.input.noReply') : (extraBlock ?? block.hint);
  return (
    <>
      <MessageView
        service={service}
        convo={convo}
        label={t('chats.conversation.label', { name })}
        onRetry={onRetry}
      />
      {replyable && !extraBlock && (
        <ScheduledList fromNumber={convo.ownFullNumber} toNumber={convo.otherFullNumber} />
      )}
      <Composer
        canSend={canSend}
        blockedHint={hint}
        blockFinal={!replyable || !!extraBlock}
        autoFocus={autoFocus ?? false}
        onFocus={() => service.markRead(convo.key)}
        sendLater={
          replyable && !extraBlock
            ? { fromNumber: convo.ownFullNumber, toNumber: convo.otherFullNumber }
            : undefined
        }
        onSendText={(text) => {
          const ok = service.sendText(convo.ownFullNumber, convo.otherFullNumber, text);
          if (ok) onSent?.();
          return ok;
        }}
        onSendImage={async (image) => {
          if (await service.sendImage(convo.ownFullNumber, convo.otherFullNumber, image)) onSent?.();
        }}
      />
    </>
  );
}

/** An open chat (spec 000 §2 Conversation view): header, banners, messages, input box. */
export function Conversation({ service, chatKey }: { service: ChatService; chatKey: string }) {
  const { t } = useTranslation();
  const { own, other } = splitKey(chatKey);
  const convo = useMemo(() => service.convo(own, other), [service, own, other]);
  const contactName = useContactName(other);
  const title = contactName ?? formatFullNumber(other);
  const split = splitFullNumber(other);
  const person: ChosenPerson = {
    name: contactName ?? '',
    phone: other,
    telCode: split.telCode,
    shortPhone: split.national,
  };
  const Actions = chatSlots.ChatPartnerActions;

  // opening a chat clears its count (spec 000 §4)
  useEffect(() => {
    service.markRead(chatKey);
  }, [service, chatKey]);

  return (
    <section className="conversation" aria-label={title}>
      <header className="conversation-header">
        <BackButton
          place={t('chats.list.label')}
          onPress={() => useChatsUi.getState().select(null)}
          focusNext={[`.chat-row[data-key="${CSS.escape(chatKey)}"]`, '.chats-new']}
        />
        <Avatar name={contactName} number={other} size={40} />
        <div className="conversation-title">
          <h2>{title}</h2>
          <span className="muted">{t('chats.conversation.from', { number: formatFullNumber(own) })}</span>
        </div>
        {Actions && canReplyTo(other) && <Actions person={person} />}
      </header>
      <MismatchBanner chatKey={chatKey} own={own} other={other} />
      <ConversationBody key={chatKey} service={service} convo={convo} name={title} />
    </section>
  );
}
