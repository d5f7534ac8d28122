import { useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { constants, type PaymentHistoryItem } from '@numa/contract';
import { LoadFailed, Loading } from '../../components/Spinner';
import { money } from '../../lib/money';
import { dateTime, usePaymentList } from './api/history';
import { MonthTabs, recentMonths } from '../../components/MonthTabs';
import './history.css';

const rowHeight = 56;

/** Payment history (spec 001 §2): 4 month tabs, the month's total, a virtual list; amounts with 2 decimals. */
export default function PaymentHistoryPanel() {
  const { t } = useTranslation();
  const [ym, setYm] = useState(() => recentMonths()[0]!);
  return (
    <section className="panel history-panel" aria-labelledby="payment-history-title">
      <h2 id="payment-history-title">{t('history.paymentTitle')}</h2>
      <MonthTabs label={t('history.months')} value={ym} onChange={setYm}>
        <PaymentMonth ym={ym} />
      </MonthTabs>
    </section>
  );
}

function PaymentMonth({ ym }: { ym: string }) {
  const { t } = useTranslation();
  const list = usePaymentList(ym);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = list.data?.paymentList ?? [];
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  if (list.isPending) return <Loading label={t('app.loading')} />;
  if (list.isError) return <LoadFailed onRetry={() => list.refetch()} />;
  return (
    <>
      <p className="history-total" data-testid="payment-total">
        {t('history.total', { count: list.data.totalRows })}
      </p>
      {rows.length === 0 ? (
        <p className="history-empty muted">{t('history.paymentEmpty')}</p>
      ) : (
        <div ref={scrollRef} className="history-scroll" role="list" aria-label={t('history.paymentTitle')}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const p = rows[v.index]!;
              return (
                <div
                  key={p._id}
                  role="listitem"
                  className="history-row"
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: rowHeight,
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <PaymentRow payment={p} />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </>
  );
}

/**
 * One top-up: its method, date, amount (2 decimals) and gift, and how it stands when money went back
 * (issue 18): refunded in full or in part, or disputed (open, won, lost).
 */
export function PaymentRow({ payment: p }: { payment: PaymentHistoryItem }) {
  const { t, i18n } = useTranslation();
  const d = constants.paymentHistoryDecimals;
  const returned =
    p.refunded !== undefined
      ? p.refunded >= p.amount
        ? t('history.refunded')
        : t('history.partlyRefunded', { amount: money(p.refunded, d) })
      : null;
  return (
    <>
      <span className="history-main">
        <span>
          {t(`history.methods.${p.method}`)}
          {(returned || p.dispute) && (
            <span className="history-returned">
              {' · '}
              {[returned, p.dispute ? t(`history.dispute.${p.dispute}`) : null].filter(Boolean).join(' · ')}
            </span>
          )}
        </span>
      </span>
      <span className="history-date muted">{dateTime(p.date, i18n.language)}</span>
      <span className="history-amount">
        {money(p.amount, d)}
        {p.gifts > 0 && <span className="muted"> {t('history.gift', { amount: money(p.gifts, d) })}</span>}
      </span>
    </>
  );
}
