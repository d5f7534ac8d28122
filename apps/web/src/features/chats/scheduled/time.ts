import { currentLang } from '../../../lib/i18n';

/** The page's locale for dates (the brand's language, as the shell's I18nProvider). */
export const dateLocale = () => (currentLang() === 'zh' ? 'zh-CN' : 'en-US');

/** A scheduled time as shown: weekday, date and time in the page's language and the user's time zone. */
export const shownTime = (ms: number) =>
  new Intl.DateTimeFormat(dateLocale(), {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(ms));
