import { useState } from 'react';
import { Button, Tab, TabList, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type VerificationHistoryEntry } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Loading, LoadFailed } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { refreshBalance } from '../../shared/api/account';
import { handleProfileRequired } from '../../shared/dialogs/billingProfile';
import { lastMonths, useCodeHistory } from './api/codes';
import { rekeepCodeNumber } from './api/keep';
import './codes.css';

const typeKey: Record<number, string> = {
  1: 'codes.historyType1',
  2: 'codes.historyType2',
  100: 'codes.historyType100',
};

/**
 * Verification history (spec 001 §2: 6 month tabs of the current UTC month and the five before,
 * 85 px rows with number, name, type label, date and charge; infinite scroll; re-subscribe on a
 * lapsed entry; a result dialog whose OK reloads the month).
 */
export default function HistoryPanel() {
  const { t } = useTranslation();
  const months = lastMonths(6);
  const [ym, setYm] = useState(months[0]!);
  const [result, setResult] = useState<string | null>(null);
  const showError = useUi((s) => s.showError);
  const history = useCodeHistory(ym);
  const rows = history.data?.pages.flatMap((p) => p.list) ?? [];

  const resubscribe = async (e: VerificationHistoryEntry) => {
    try {
      const res = await rekeepCodeNumber(e);
      setResult(res.subHint);
      void refreshBalance();
    } catch (err) {
      if (!isApiError(err)) throw err;
      if (err.retcode === 400001) showError({ kind: 'insufficient', message: err.retmsg });
      else if (err.retcode === 100023) handleProfileRequired(err.data, 'manageNumber');
      else setResult(err.retmsg);
    }
  };

  return (
    <section className="panel codes-history-panel" aria-labelledby="codes-history-panel-title">
      <h2 id="codes-history-panel-title">{t('codes.historyTitle')}</h2>
      <Tabs selectedKey={ym} onSelectionChange={(k) => setYm(String(k))}>
        <TabList aria-label={t('codes.historyMonths')} className="segmented">
          {months.map((m) => (
            <Tab key={m} id={m} className="segment">
              {m}
            </Tab>
          ))}
        </TabList>
      </Tabs>
      {history.isPending ? (
        <Loading label={t('app.loading')} />
      ) : history.isError ? (
        <LoadFailed onRetry={() => history.refetch()} />
      ) : rows.length === 0 ? (
        <p className="codes-empty muted">{t('codes.historyEmpty')}</p>
      ) : (
        <ul
          className="codes-history-rows"
          aria-label={t('codes.historyTitle')}
          onScroll={(e) => {
            const el = e.currentTarget;
            if (
              el.scrollHeight - el.scrollTop - el.clientHeight <= 10 &&
              history.hasNextPage &&
              !history.isFetchingNextPage
            )
              void history.fetchNextPage();
          }}
        >
          {rows.map((e) => (
            <li key={e._id} className="codes-history-row">
              <div>
                <div className="codes-history-number">{e.number}</div>
                <div className="muted small">
                  {e.name} · {t(typeKey[e.type] ?? 'codes.historyType1')}
                </div>
                <div className="muted small">{new Date(e.date).toLocaleString()}</div>
              </div>
              <div className="codes-history-right">
                <span className="codes-history-charge">{money(e.charge)}</span>
                {e.type === 100 && e.nextPaymentDate && (
                  <Button className="button primary" onPress={() => void resubscribe(e)}>
                    {t('codes.resubscribe')}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        title={t('codes.resultTitle')}
        isOpen={result !== null}
        onClose={() => setResult(null)}
        role="alertdialog"
        footer={
          <Button
            className="button primary"
            onPress={() => {
              setResult(null);
              void history.refetch();
            }}
          >
            {t('codes.ok')}
          </Button>
        }
      >
        <p>{result}</p>
      </Dialog>
    </section>
  );
}
