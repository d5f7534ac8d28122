import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { money } from '../../lib/money';
import { dateTime, nearBottom, useSmsList } from './api/history';
import { MonthTabs, recentMonths } from '../../components/MonthTabs';
import './history.css';

/** SMS history (spec 001 §2): the month's texts with their charges, 200 a page, loading more at 20 px. */
export default function SmsHistoryPanel() {
  const { t } = useTranslation();
  const [ym, setYm] = useState(() => recentMonths()[0]!);
  return (
    <section className="panel history-panel" aria-labelledby="sms-history-title">
      <h2 id="sms-history-title">{t('history.smsTitle')}</h2>
      <MonthTabs label={t('history.months')} value={ym} onChange={setYm}>
        <SmsMonth ym={ym} />
      </MonthTabs>
    </section>
  );
}

function SmsMonth({ ym }: { ym: string }) {
  const { t, i18n } = useTranslation();
  const sms = useSmsList(ym);
  if (sms.isPending) return <Loading label={t('app.loading')} />;
  if (sms.isError) return <LoadFailed onRetry={() => sms.refetch()} />;
  const rows = sms.data.pages.flatMap((p) => p.smsList);
  const total = sms.data.pages[0]?.totalRows ?? 0;
  return (
    <>
      <p className="history-total">{t('history.total', { count: total })}</p>
      {rows.length === 0 ? (
        <p className="history-empty muted">{t('history.smsEmpty')}</p>
      ) : (
        <ul
          className="history-scroll"
          aria-label={t('history.smsTitle')}
          onScroll={(e) => {
            if (
              sms.hasNextPage &&
              !sms.isFetchingNextPage &&
              nearBottom(e.currentTarget, constants.scrollThresholdPx)
            )
              void sms.fetchNextPage();
          }}
        >
          {rows.map((m) => (
            <li key={m._id} className="history-row sms-row">
              <span className="history-main">
                {m.direction === 'out'
                  ? t('history.smsTo', { number: m.toNumber })
                  : t('history.smsFrom', { number: m.fromNumber })}
                <span className="history-text">{m.type === 'mms' ? t('history.mms') : m.text}</span>
              </span>
              <span className="history-date muted">{dateTime(m.date, i18n.language)}</span>
              <span className="history-amount">{m.charge > 0 ? money(-m.charge) : money(0)}</span>
            </li>
          ))}
          {sms.isFetchingNextPage && (
            <li className="history-more">
              <Spinner size={16} label={t('app.loading')} />
            </li>
          )}
        </ul>
      )}
    </>
  );
}
