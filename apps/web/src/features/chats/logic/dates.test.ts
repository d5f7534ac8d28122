import { describe, expect, it } from 'vitest';
import { dateLabel, monthsBefore, needsSeparator, previousMonth, utcMonth } from './dates';

const words = { en: { yesterday: 'Yesterday' }, zh: { yesterday: '昨天' } };
// local times, so the test holds in any time zone; a Wednesday
const now = new Date(2025, 5, 18, 15, 30).getTime();
const at = (day: number, h: number, m: number) => new Date(2025, 5, day, h, m).getTime();

describe('date labels (spec 000 §9)', () => {
  it("shows today's time", () => {
    expect(dateLabel(at(18, 9, 5), now, 'en', words.en)).toBe('09:05');
    expect(dateLabel(at(18, 0, 0), now, 'zh', words.zh)).toBe('00:00');
  });
  it("says 'yesterday'", () => {
    expect(dateLabel(at(17, 23, 59), now, 'en', words.en)).toBe('Yesterday');
    expect(dateLabel(at(17, 8, 0), now, 'zh', words.zh)).toBe('昨天');
    expect(dateLabel(at(17, 8, 0), now, 'en', words.en, true)).toBe('Yesterday 08:00');
  });
  it('names the weekday within 7 days', () => {
    expect(dateLabel(at(16, 12, 0), now, 'en', words.en)).toBe('Monday');
    expect(dateLabel(at(12, 12, 0), now, 'en', words.en)).toBe('Thursday');
    expect(dateLabel(at(12, 12, 0), now, 'zh', words.zh)).toBe('星期四');
    expect(dateLabel(at(16, 7, 45), now, 'zh', words.zh, true)).toBe('星期一 07:45');
  });
  it('gives a short date from 7 days back', () => {
    expect(dateLabel(at(11, 12, 0), now, 'en', words.en)).toBe('6/11/25');
    expect(dateLabel(at(11, 12, 0), now, 'zh', words.zh)).toBe('2025/6/11');
    expect(dateLabel(new Date(2024, 11, 31, 22, 10).getTime(), now, 'en', words.en, true)).toBe(
      '12/31/24 22:10',
    );
  });
  it('treats a date after now (clock skew) as today', () => {
    expect(dateLabel(now + 60_000, now, 'en', words.en)).toBe('15:31');
  });
});

describe('time separators (spec 000 §9)', () => {
  it('goes above the first message and after a gap of more than 5 minutes', () => {
    expect(needsSeparator(undefined, now)).toBe(true);
    expect(needsSeparator(now, now + 300_000)).toBe(false);
    expect(needsSeparator(now, now + 300_001)).toBe(true);
  });
});

describe('UTC months', () => {
  it('walks back across a year', () => {
    expect(utcMonth(Date.UTC(2025, 0, 31, 23, 59))).toBe('2025-01');
    expect(previousMonth('2025-01')).toBe('2024-12');
    expect(previousMonth('2025-10')).toBe('2025-09');
    expect(monthsBefore('2024-11', '2025-02')).toBe(3);
    expect(monthsBefore('2025-02', '2025-02')).toBe(0);
  });
});
