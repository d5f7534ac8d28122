import { useMemo, useState } from 'react';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog as AriaDialog,
  FieldError,
  Form,
  Group,
  Heading,
  Label,
  Popover,
  Text,
  TextArea,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { getLocalTimeZone, now, type ZonedDateTime } from '@internationalized/date';
import { constants, type ScheduledMessage } from '@numa/contract';
import { Dialog } from '../../../components/Dialog';
import { ApiError } from '../../../lib/api';
import { useScheduleActions } from '../api/scheduled';
import './scheduled.css';
import { dateLocale } from './time';

/** The user's time zone, named in the page's language ("Pacific Daylight Time · America/Los_Angeles"). */
export function zoneName(at: number): string {
  const zone = getLocalTimeZone();
  const part = new Intl.DateTimeFormat(dateLocale(), { timeZone: zone, timeZoneName: 'long' })
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName')?.value;
  return part ? `${part} · ${zone}` : zone;
}

/** One hour from now, on the next five minutes. */
function defaultTime(): ZonedDateTime {
  const t = now(getLocalTimeZone()).add({ hours: 1 }).set({ second: 0, millisecond: 0 });
  const up = (5 - (t.minute % 5)) % 5;
  return t.add({ minutes: up });
}

const fromMs = (ms: number): ZonedDateTime => {
  const base = now(getLocalTimeZone());
  return base.add({ milliseconds: ms - base.toDate().getTime() }).set({ second: 0, millisecond: 0 });
};

/**
 * "Send later" (issue 22 §2): the message's text and a date and time in the user's time zone, shown
 * in the page's language; schedules a new message from the composer, or changes a waiting (or
 * failed) one. A refusal (too soon, too far, too many) is shown here, in the server's words.
 */
export function SendLaterDialog({
  isOpen,
  onClose,
  fromNumber,
  toNumber,
  initialText,
  item,
  onDone,
}: {
  isOpen: boolean;
  onClose(): void;
  fromNumber: string;
  toNumber: string;
  initialText: string;
  /** The scheduled message being changed; none: a new one. */
  item?: ScheduledMessage | undefined;
  onDone(sendAt: number): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(item?.text ?? initialText);
  const [when, setWhen] = useState<ZonedDateTime | null>(() =>
    item && item.status === 'waiting' ? fromMs(item.sendAt) : defaultTime(),
  );
  const [error, setError] = useState<string | null>(null);
  const { schedule, edit } = useScheduleActions(fromNumber, toNumber);
  const busy = schedule.isPending || edit.isPending;
  const bounds = useMemo(() => {
    const n = now(getLocalTimeZone());
    return { min: n.add({ minutes: 1 }), max: n.add({ days: constants.scheduled.maxAheadDays }) };
  }, []);
  const at = when ? when.toDate().getTime() : null;

  const submit = () => {
    if (at === null || !text.trim()) return;
    setError(null);
    const done = {
      onSuccess: () => onDone(at),
      onError: (e: unknown) => setError(e instanceof ApiError ? e.retmsg : t('messaging.scheduled.failed')),
    };
    if (item) edit.mutate({ item, text: text.trim(), sendAt: at }, done);
    else schedule.mutate({ text: text.trim(), sendAt: at }, done);
  };

  const title = item ? t('messaging.scheduled.editTitle') : t('messaging.scheduled.title');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title} width={440} className="send-later">
      <Form
        className="send-later-form"
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField
          className="field"
          value={text}
          onChange={setText}
          isRequired
          maxLength={constants.scheduled.textMax}
        >
          <Label>{t('messaging.scheduled.text')}</Label>
          <TextArea className="input send-later-text" rows={3} />
        </TextField>
        <DatePicker
          className="field send-later-when"
          value={when}
          onChange={setWhen}
          granularity="minute"
          hideTimeZone
          minValue={bounds.min}
          maxValue={bounds.max}
          isRequired
          validationBehavior="aria"
          shouldForceLeadingZeros
        >
          <Label>{t('messaging.scheduled.when')}</Label>
          <Group className="input send-later-group">
            <DateInput className="send-later-input">
              {(segment) => <DateSegment className="send-later-segment" segment={segment} />}
            </DateInput>
            <Button className="icon-button send-later-open" aria-label={t('messaging.scheduled.calendar')}>
              <span aria-hidden="true">▾</span>
            </Button>
          </Group>
          <Text slot="description" className="muted send-later-zone">
            {t('messaging.scheduled.zone', { zone: zoneName(at ?? bounds.min.toDate().getTime()) })}
          </Text>
          <FieldError className="field-error" />
          <Popover className="popover send-later-popover" placement="bottom end">
            <AriaDialog className="send-later-calendar-dialog" aria-label={t('messaging.scheduled.calendar')}>
              <Calendar className="send-later-calendar">
                <header className="send-later-calendar-header">
                  <Button slot="previous" className="icon-button">
                    <span aria-hidden="true">‹</span>
                  </Button>
                  <Heading className="send-later-month" />
                  <Button slot="next" className="icon-button">
                    <span aria-hidden="true">›</span>
                  </Button>
                </header>
                <CalendarGrid className="send-later-grid">
                  {(date) => <CalendarCell className="send-later-cell" date={date} />}
                </CalendarGrid>
              </Calendar>
            </AriaDialog>
          </Popover>
        </DatePicker>
        {error && (
          <p className="field-error send-later-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions send-later-actions">
          <Button className="button" onPress={onClose}>
            {t('messaging.scheduled.close')}
          </Button>
          <Button type="submit" className="button primary" isDisabled={busy || !text.trim() || at === null}>
            {item ? t('messaging.scheduled.save') : t('messaging.scheduled.schedule')}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
