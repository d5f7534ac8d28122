import { memo, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { constants } from '@numa/contract';
import { Spinner } from '../../../components/Spinner';
import { useUi } from '../../../stores/ui';
import { highlightParts } from '../logic/highlight';
import { mediaKind, mediaUrls } from '../logic/image';
import type { ConvoMessage } from '../state/convo';
import { CheckIcon, ErrorIcon } from './icons';
import { VoiceMessage } from './VoiceMessage';

/** A picture of a message; a picture that fails to load shows the fallback text (spec 000 §2). */
function MessageImage({ url, link }: { url: string; link: boolean }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'ok' | 'failed'>('loading');
  if (state === 'failed') return <MediaFallback url={link ? url : null} />;
  const img = (
    <img
      className={`msg-image ${state}`}
      src={url}
      alt={t('chats.message.picture')}
      onLoad={() => setState('ok')}
      onError={() => setState('failed')}
      draggable={false}
    />
  );
  return link ? (
    <a
      className="msg-image-link"
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('chats.message.openPicture')}
    >
      {img}
    </a>
  ) : (
    img
  );
}

function MediaFallback({ url }: { url: string | null }) {
  const { t } = useTranslation();
  return (
    <span className="msg-fallback">
      {t('chats.message.mediaFallback')}
      {url && (
        <>
          {' '}
          <a href={url} target="_blank" rel="noopener noreferrer">
            {t('chats.message.openMedia')}
          </a>
        </>
      )}
    </span>
  );
}

/** The text with its highlight phrases as action links: profile and identity open the profile. */
function MessageText({ message }: { message: ConvoMessage }) {
  const navigate = useUi((s) => s.navigate);
  const parts = highlightParts(message.text, message.highlightText, message.highlightTarget);
  if (parts.length === 0) return null;
  return (
    <p className="msg-text">
      {parts.map((p, i) =>
        p.target ? (
          <Button
            key={i}
            className="link-button msg-action"
            onPress={() => navigate('tabAccount', 'profile')}
          >
            {p.text}
          </Button>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </p>
  );
}

/** One message (spec 000 §3): media, text, time and the send status (spinner pending, error icon failed). */
export const MessageBubble = memo(function MessageBubble({
  message: m,
  onRetry,
  lastDelivered = false,
}: {
  message: ConvoMessage;
  onRetry(smsId: string): void;
  /** The sender's last delivered message of the conversation: "Delivered" shows under it (issue 21). */
  lastDelivered?: boolean;
}) {
  const { t } = useTranslation();
  const urls = mediaUrls(m.media);
  const failed = m.status === constants.messageStatus.failed;
  const pending = m.status === constants.messageStatus.pending;
  return (
    <div className={`msg ${m.direction}`} data-testid="message" data-sms-id={m.smsId}>
      <div className={`bubble ${m.type === 'verificationCode' ? 'code' : ''} ${failed ? 'failed' : ''}`}>
        {m.type === 'verificationCode' && (
          <span className="msg-kind">{t('chats.message.verificationCode')}</span>
        )}
        {m.previewUrl && urls.length === 0 && <MessageImage url={m.previewUrl} link={false} />}
        {urls.map((url) => {
          const kind = mediaKind(url, m.type);
          if (kind === 'image') return <MessageImage key={url} url={url} link />;
          if (kind === 'audio') return <VoiceMessage key={url} url={url} message={m} />;
          return <MediaFallback key={url} url={url} />;
        })}
        <MessageText message={m} />
        <span className="msg-meta">
          <time dateTime={new Date(m.date).toISOString()}>{dayjs(m.date).format('HH:mm')}</time>
          {m.direction === 'out' &&
            (pending ? (
              <Spinner size={11} label={t('chats.message.pending')} />
            ) : failed ? (
              <span className="msg-status failed" role="img" aria-label={t('chats.message.failed')}>
                <ErrorIcon />
              </span>
            ) : (
              <span className="msg-status sent" role="img" aria-label={t('chats.message.sent')}>
                <CheckIcon />
              </span>
            ))}
        </span>
      </div>
      {lastDelivered && !failed && <div className="msg-delivered">{t('chats.message.delivered')}</div>}
      {failed && (
        <div className="msg-error" role={m.local ? 'alert' : undefined}>
          <span>{m.retmsg || t('chats.message.failedReason')}</span>
          {m.local && (
            <Button className="link-button" onPress={() => onRetry(m.smsId)}>
              {t('chats.message.retry')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
});
