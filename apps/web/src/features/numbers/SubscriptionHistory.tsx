import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type SubscriptionHistoryEntry } from '@numa/contract';
import { LoadFailed, Loading } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { formatFullNumber } from '../../lib/phone';
import { useUi } from '../../stores/ui';
import { handleProfileRequired, isProfileRequired } from '../../shared/dialogs/billingProfile';
import { PlansNotice } from './plans/PlansNotice';
import { resubscribeNumber } from './api/manage';
import { refreshNumbers, useSubscriptionHistory } from './api/numbers';
import { useOneAtATime } from '../../lib/oneAtATime';

/** The current UTC month and the `n - 1` before it, as YYYY-MM (newest first). */
export function monthTabs(n: number, now = new Date()): string[] {
  return Array.from({ length: n }, (_, i) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7),
  );
}

const typeKey: Record<number, string> = Object.fromEntries(
  Object.entries(constants.rentals.historyTypes).map(([k, v]) => [v, k]),
);

/**
 * Subscription history (spec 001 §2): 6 month tabs, a total, entries with a re-subscribe on type 100,
 * and on numa the notice that opens the US cell phone plans.
 */
export default function SubscriptionHistory({ onPlans }: { onPlans: () => void }) {
  const { t } = useTranslation();
  const months = monthTabs(constants.verificationHistoryMonthTabs);
  const [month, setMonth] = useState(months[0]!);
  return (
    <section className="numbers-panel" aria-labelledby="subs-history-title">
      <h2 id="subs-history-title">{t('numbers.history.title')}</h2>
      <PlansNotice onOpen={onPlans} />
      <Tabs selectedKey={month} onSelectionChange={(k) => setMonth(String(k))}>
        <TabList className="numbers-month-tabs" aria-label={t('numbers.history.months')}>
          {months.map((m) => (
            <Tab key={m} id={m} className="numbers-month-tab">
              {m}
            </Tab>
          ))}
        </TabList>
        {/* the selected month's list is its tab's panel (the tab's aria-controls names it) */}
        {months.map((m) => (
          <TabPanel key={m} id={m}>
            {m === month ? <MonthList month={m} /> : null}
          </TabPanel>
        ))}
      </Tabs>
    </section>
  );
}

function MonthList({ month }: { month: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useSubscriptionHistory(month);
  const showAlert = useUi((s) => s.showAlert);
  const showError = useUi((s) => s.showError);
  const resub = useOneAtATime({
    mutationFn: (e: SubscriptionHistoryEntry) => resubscribeNumber({ historyId: e.historyId, date: e.date }),
    onSuccess: async (r) => {
      showAlert(r.subHint);
      await refreshNumbers(qc);
    },
    onError: (e) => {
      if (isProfileRequired(e) && isApiError(e)) handleProfileRequired(e.data, 'manageNumber');
      else if (isApiError(e) && e.retcode === 400001) showError({ kind: 'insufficient', message: e.retmsg });
      else showAlert(isApiError(e) ? e.retmsg : t('errors.generic'));
    },
  });
  if (list.isPending) return <Loading label={t('app.loading')} />;
  if (list.isError) return <LoadFailed onRetry={() => list.refetch()} />;
  const entries = list.data.pages.flatMap((p) => p.list);
  const total = list.data.pages[0]?.totalRows ?? 0;
  // the next page loads within 20 px of the bottom, not while loading (spec 001 §5)
  const onScroll = (e: React.UIEvent<HTMLUListElement>) => {
    const el = e.currentTarget;
    if (
      el.scrollHeight - el.scrollTop - el.clientHeight <= constants.scrollThresholdPx &&
      list.hasNextPage &&
      !list.isFetchingNextPage
    )
      void list.fetchNextPage();
  };
  return (
    <>
      <p className="muted" data-testid="subs-total">
        {t('numbers.history.total', { count: total })}
      </p>
      {entries.length === 0 ? (
        <p className="empty-state">{t('numbers.history.empty')}</p>
      ) : (
        <ul className="history-list" onScroll={onScroll}>
          {entries.map((e) => (
            <li key={e._id} className="history-row">
              <span className="history-number">{formatFullNumber(e.number.replace(/^\+/, ''))}</span>
              <span>{t(`numbers.history.types.${typeKey[e.type] ?? 'subscribe'}`)}</span>
              <span className="muted">{new Date(e.date).toISOString().slice(0, 16).replace('T', ' ')}</span>
              <span className="history-charge">{money(e.charge)}</span>
              {e.type === constants.rentals.historyTypes.expired && e.planId !== null && e.resDate && (
                <Button className="button" isDisabled={resub.isPending} onPress={() => resub.mutate(e)}>
                  {t('numbers.history.resubscribe')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
