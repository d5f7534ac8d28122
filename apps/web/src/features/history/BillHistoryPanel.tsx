import { useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { billTypeName, constants, type BillItem } from '@numa/contract';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { currentLanguageCode } from '../../lib/i18n';
import { money } from '../../lib/money';
import { useSession } from '../../stores/session';
import { dateTime, nearBottom, useBillList } from './api/history';
import { MonthTabs, recentMonths } from '../../components/MonthTabs';
import './history.css';

/** Bill history (spec 001 §2): every balance change of the month, endless scroll (10 px, 1 s debounce), CSV download. */
export default function BillHistoryPanel() {
  const { t } = useTranslation();
  const [ym, setYm] = useState(() => recentMonths()[0]!);
  return (
    <section className="panel history-panel" aria-labelledby="bill-history-title">
      <h2 id="bill-history-title">{t('history.billTitle')}</h2>
      <MonthTabs label={t('history.months')} value={ym} onChange={setYm}>
        <BillMonth ym={ym} />
      </MonthTabs>
    </section>
  );
}

function BillMonth({ ym }: { ym: string }) {
  const { t } = useTranslation();
  const bills = useBillList(ym);
  const lastLoad = useRef(0);
  const [downloading, setDownloading] = useState(false);
  const token = useSession((s) => s.token);
  if (bills.isPending) return <Loading label={t('app.loading')} />;
  if (bills.isError) return <LoadFailed onRetry={() => bills.refetch()} />;
  const rows = bills.data.pages.flatMap((p) => p.list);

  const onScroll = (e: React.UIEvent<HTMLElement>) => {
    if (!bills.hasNextPage || bills.isFetchingNextPage) return;
    if (!nearBottom(e.currentTarget, constants.billScrollThresholdPx)) return;
    const now = Date.now();
    if (now - lastLoad.current < constants.billLoadDebounceMs) return;
    lastLoad.current = now;
    void bills.fetchNextPage();
  };

  const download = async () => {
    setDownloading(true);
    try {
      const res = await fetch(`/web/downloadBills?ym=${ym}&languagecode=${currentLanguageCode()}`, {
        headers: { 'auth-token': token ?? '' },
      });
      if (!res.ok) throw new Error(String(res.status));
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `bills-${ym}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch {
      // only logged (spec 001 §8: unexpected errors in history calls)
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <div className="history-toolbar">
        <Button
          className="button"
          onPress={() => void download()}
          isDisabled={downloading || rows.length === 0}
        >
          {downloading && <Spinner size={14} />} {t('history.downloadCsv')}
        </Button>
      </div>
      {rows.length === 0 ? (
        <p className="history-empty muted">{t('history.billEmpty')}</p>
      ) : (
        <ul className="history-scroll bill-list" aria-label={t('history.billTitle')} onScroll={onScroll}>
          {rows.map((b) => (
            <BillRow key={b._id} bill={b} />
          ))}
          {bills.isFetchingNextPage && (
            <li className="history-more">
              <Spinner size={16} label={t('app.loading')} />
            </li>
          )}
        </ul>
      )}
    </>
  );
}

/**
 * One bill: its type in the app's language (the top-up's refund, chargeback and their reversals
 * included), what it is about, the signed charge and the balance after it (negatives with a minus).
 */
export function BillRow({ bill: b }: { bill: BillItem }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="history-row bill-row">
      <span className="history-main">
        {t(`history.billTypes.${billTypeName(b.type) ?? 'adjustment'}`)}
        <span className="muted history-detail">{billDetail(b, t)}</span>
      </span>
      <span className="history-date muted">{dateTime(b.date, i18n.language)}</span>
      <span className={`history-amount ${b.charge < 0 ? 'negative' : 'positive'}`}>
        {b.charge > 0 ? `+${money(b.charge)}` : money(b.charge)}
      </span>
      <span className={`history-after muted${b.afterBalance < 0 ? ' negative' : ''}`}>
        {t('history.after', { amount: money(b.afterBalance) })}
      </span>
    </li>
  );
}

function billDetail(b: BillItem, t: (k: string, o?: Record<string, unknown>) => string): string {
  const o = b.options;
  if (o.purchaseMethod)
    return `${t(`history.methods.${o.purchaseMethod}`, { defaultValue: o.purchaseMethod })}`;
  if (o.to || o.from) return `${o.direction === 'in' ? (o.from ?? '') : (o.to ?? '')}`;
  if (o.number) return `${o.number}`;
  if (o.campaignName) return `${o.campaignName}`;
  return '';
}
