import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { ScheduledMessage } from '@numa/contract';
import { openRecharge } from '../../../shared/recharge';
import { useScheduled, useScheduleActions } from '../api/scheduled';
import { SendLater } from './lazy';
import { shownTime } from './time';
import './scheduled.css';

/**
 * A conversation's scheduled messages (issue 22 §2), above its input box: each with its time and
 * Edit / Cancel while it waits; "Sending…" while it goes; "Not sent" with the reason once it failed,
 * with Recharge when the balance was too short, Edit (to try again) and Remove. The list follows the
 * server's `scheduled` socket event (lib/scheduledEvent.ts), so a message that went leaves it.
 */
export function ScheduledList({ fromNumber, toNumber }: { fromNumber: string; toNumber: string }) {
  const { t } = useTranslation();
  const list = useScheduled(fromNumber, toNumber);
  const { cancel } = useScheduleActions(fromNumber, toNumber);
  const [editing, setEditing] = useState<ScheduledMessage | null>(null);
  const [said, setSaid] = useState('');
  const items = list.data?.scheduled ?? [];

  return (
    <>
      {items.length > 0 && (
        <section className="scheduled" aria-label={t('messaging.scheduled.listLabel')}>
          <ul className="scheduled-list">
            {items.map((m) => {
              const when = shownTime(m.sendAt);
              const failed = m.status === 'failed';
              return (
                <li key={m.id} className={`scheduled-item${failed ? ' scheduled-failed' : ''}`}>
                  <div className="scheduled-body">
                    <span className="scheduled-when">
                      {failed
                        ? t('messaging.scheduled.notSent')
                        : m.status === 'sending'
                          ? t('messaging.scheduled.sending')
                          : t('messaging.scheduled.at', { when })}
                    </span>
                    <span className="scheduled-text">{m.text}</span>
                    {failed && m.retmsg && <span className="scheduled-reason">{m.retmsg}</span>}
                  </div>
                  {m.status !== 'sending' && (
                    <div className="scheduled-actions">
                      {failed && m.retcode === 400001 && (
                        <Button className="button primary" onPress={() => openRecharge()}>
                          {t('messaging.scheduled.recharge')}
                        </Button>
                      )}
                      <Button
                        className="button"
                        aria-label={
                          failed
                            ? t('messaging.scheduled.retryOne', { text: m.text })
                            : t('messaging.scheduled.editOne', { when })
                        }
                        onPress={() => setEditing(m)}
                      >
                        {failed ? t('messaging.scheduled.retry') : t('messaging.scheduled.edit')}
                      </Button>
                      <Button
                        className="button danger"
                        aria-label={
                          failed
                            ? t('messaging.scheduled.removeOne', { text: m.text })
                            : t('messaging.scheduled.cancelOne', { when })
                        }
                        isDisabled={cancel.isPending}
                        onPress={() =>
                          cancel.mutate(m, {
                            onSuccess: () => setSaid(t('messaging.scheduled.cancelled')),
                            onError: () => setSaid(t('messaging.scheduled.tooLate')),
                          })
                        }
                      >
                        {failed ? t('messaging.scheduled.remove') : t('messaging.scheduled.cancel')}
                      </Button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      <p className="sr-only" role="status">
        {said}
      </p>
      {editing && (
        <SendLater
          isOpen
          onClose={() => setEditing(null)}
          fromNumber={fromNumber}
          toNumber={toNumber}
          initialText={editing.text}
          item={editing}
          onDone={(at) => {
            setEditing(null);
            setSaid(t('messaging.scheduled.saved', { when: shownTime(at) }));
          }}
        />
      )}
    </>
  );
}
