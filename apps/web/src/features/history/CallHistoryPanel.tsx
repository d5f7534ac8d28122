import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed, Loading } from '../../components/Spinner';
import { money } from '../../lib/money';
import { formatFullNumber } from '../../lib/phone';
import { MonthTabs, recentMonths } from '../../components/MonthTabs';
import '../../components/panelTable.css';
import { useCallList } from './api/history';
import './history.css';

/**
 * Call history (spec 001 §2 history pages, spec 000 §9 call duration): 4 month tabs (the current UTC
 * month and the 3 before), the month's total and its calls with direction, numbers, billed minutes
 * (rounded up), line and charge.
 */
export default function CallHistoryPanel() {
  const { t } = useTranslation();
  const [month, setMonth] = useState(() => recentMonths()[0]!);
  const calls = useCallList(month);
  return (
    <section className="numbers-panel" aria-labelledby="call-history-title">
      <h2 id="call-history-title">{t('numbers.calls.title')}</h2>
      <MonthTabs label={t('numbers.history.months')} value={month} onChange={setMonth}>
        {calls.isPending ? (
          <Loading label={t('app.loading')} />
        ) : calls.isError ? (
          <LoadFailed onRetry={() => calls.refetch()} />
        ) : (
          <>
            <p className="muted" data-testid="calls-total">
              {t('numbers.history.total', { count: calls.data.totalRows })}
            </p>
            {calls.data.callList.length === 0 ? (
              <p className="empty-state">{t('numbers.calls.empty')}</p>
            ) : (
              <table className="numbers-table">
                <thead>
                  <tr>
                    <th scope="col">{t('numbers.calls.date')}</th>
                    <th scope="col">{t('numbers.calls.type')}</th>
                    <th scope="col">{t('numbers.calls.from')}</th>
                    <th scope="col">{t('numbers.calls.to')}</th>
                    <th scope="col">{t('numbers.calls.minutes')}</th>
                    <th scope="col">{t('numbers.calls.charge')}</th>
                  </tr>
                </thead>
                <tbody>
                  {calls.data.callList.map((c) => (
                    <tr key={c._id}>
                      <td>{new Date(c.date).toISOString().slice(0, 16).replace('T', ' ')}</td>
                      <td>
                        {t(`numbers.calls.types.${c.type}`)} · {t(`numbers.calls.directions.${c.direction}`)}
                      </td>
                      <td>{formatFullNumber(c.srcNum)}</td>
                      <td>{formatFullNumber(c.destNum)}</td>
                      <td>{Math.ceil(c.billingDuration / 60)}</td>
                      <td>{money(c.charge)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </MonthTabs>
    </section>
  );
}
