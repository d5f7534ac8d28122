import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { constants, type Lang } from '@numa/contract';

export interface DateWords {
  yesterday: string;
}

const locale = (lang: Lang) => (lang === 'zh' ? 'zh-cn' : 'en');

/** Whole calendar days between two instants, in the browser's time zone. */
export function calendarDaysBetween(earlier: number, later: number): number {
  return dayjs(later).startOf('day').diff(dayjs(earlier).startOf('day'), 'day');
}

/**
 * The date label (spec 000 §9): today's time, 'yesterday', the weekday within 7 days, else a short date.
 * `withTime` (time separators in a conversation) adds the time to the last three.
 */
export function dateLabel(date: number, now: number, lang: Lang, words: DateWords, withTime = false): string {
  const d = dayjs(date).locale(locale(lang));
  const time = d.format('HH:mm');
  const days = calendarDaysBetween(date, now);
  let day: string;
  if (days <= 0) return time;
  if (days === 1) day = words.yesterday;
  else if (days < 7) day = d.format('dddd');
  else day = lang === 'zh' ? d.format('YYYY/M/D') : d.format('M/D/YY');
  return withTime ? `${day} ${time}` : day;
}

/** A time separator goes above a message more than 5 minutes after the one before (spec 000 §9). */
export const needsSeparator = (previous: number | undefined, date: number) =>
  previous === undefined || date - previous > constants.messageGapMs;

/** `YYYY-MM` of an instant in UTC (the contract's months are UTC months). */
export const utcMonth = (date: number) => new Date(date).toISOString().slice(0, 7);

/** The UTC month before `ym`. */
export function previousMonth(ym: string): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** How many months `ym` is before `than` (0 for the same month). */
export function monthsBefore(ym: string, than: string): number {
  const [y1, m1] = ym.split('-').map(Number) as [number, number];
  const [y2, m2] = than.split('-').map(Number) as [number, number];
  return (y2 - y1) * 12 + (m2 - m1);
}
