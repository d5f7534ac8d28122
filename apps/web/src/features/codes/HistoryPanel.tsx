import { useState } from 'react';
import { Button, Tab, TabList, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, endpoints, type VerificationHistoryEntry } from '@numa/contract';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from '../../components/Dialog';
import { Loading, LoadFailed } from '../../components/Spinner';
import { call, isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { accountKeys } from '../account/api';
import { handleProfileRequired } from '../billing/store';
import { lastMonths } from './api';
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
  const queryClient = useQueryClient();
  const showError = useUi((s) => s.showError);
  const history = useInfiniteQuery({
    queryKey: ['codes', 'history', ym],
    queryFn: ({ pageParam }) =>
      call(endpoints.getSubCodeNumberList, {
        ym,
        pageSize: constants.pageSize.subscribedNumbers,
        ...(pageParam ? { nextPage: pageParam } : {}),
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextPage,
  });
  const rows = history.data?.pages.flatMap((p) => p.list) ?? [];

  const resubscribe = async (e: VerificationHistoryEntry) => {
    try {
      const res = await call(
        endpoints.reSubVerificationCodePhone,
        { historyId: e.historyId, date: e.date },
        { silent: true },
      );
      setResult(res.subHint);
      void queryClient.invalidateQueries({ queryKey: accountKeys.balance });
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
