import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, SearchField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type VirtualPhone } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { formatFullNumber } from '../../lib/phone';
import { PlansNotice } from './plans/PlansNotice';
import { useOwnNumbers } from '../../shared/api/account';
import { unsubscribeNumber } from './api/manage';
import { refreshNumbers } from './api/numbers';
import PlanChange from './PlanChange';
import { useOneAtATime } from '../../lib/oneAtATime';

/**
 * Number management (spec 001 §2): the rented numbers, searchable, with payment date, monthly rent,
 * status (forwarding / voicemail / neither) and Unsubscribe with its confirmation.
 */
export default function NumberManagement({ onNew, onPlans }: { onNew: () => void; onPlans: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const mine = useOwnNumbers();
  const showSnackbar = useUi((s) => s.showSnackbar);
  const [query, setQuery] = useState('');
  const [leaving, setLeaving] = useState<VirtualPhone | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [managing, setManaging] = useState<string | null>(null);

  const shown = useMemo(() => {
    const q = query.replace(/[^\d]/g, '');
    return (mine.data?.virtualPhones ?? []).filter((n) => !q || (n.telCode + n.phone).includes(q));
  }, [mine.data, query]);

  const unsubscribe = useOneAtATime({
    mutationFn: (n: VirtualPhone) => unsubscribeNumber(n),
    onSuccess: async (_r, n) => {
      setLeaving(null);
      showSnackbar({
        message: t('numbers.manage.unsubscribed', {
          number: formatFullNumber(n.telCode + n.phone),
          date: n.paymentDate,
        }),
        tone: 'success',
      });
      await refreshNumbers(qc);
    },
    onError: (e) => setError(isApiError(e) ? e.retmsg : t('errors.generic')),
  });

  if (managing) return <PlanChange fullNumber={managing} onBack={() => setManaging(null)} />;
  if (mine.isPending) return <Loading label={t('app.loading')} />;
  if (mine.isError) return <LoadFailed onRetry={() => mine.refetch()} />;
  const status =
    mine.data.forwardStatus === 1 ? 'forwarding' : mine.data.voicemailStatus === 1 ? 'voicemail' : 'neither';

  return (
    <section className="numbers-panel" aria-labelledby="manage-title">
      <h2 id="manage-title">{t('numbers.manage.title')}</h2>
      <PlansNotice onOpen={onPlans} />
      {mine.data.virtualPhones.length === 0 ? (
        <div className="empty-state">
          <p>{t('numbers.manage.empty')}</p>
          <Button className="button primary" onPress={onNew}>
            {t('numbers.menu.newNumber')}
          </Button>
        </div>
      ) : (
        <>
          <SearchField
            className="field"
            value={query}
            onChange={setQuery}
            aria-label={t('numbers.manage.search')}
          >
            <Input className="input" placeholder={t('numbers.manage.search')} />
          </SearchField>
          <table className="numbers-table numbers-manage-table">
            <thead>
              <tr>
                <th scope="col">{t('numbers.manage.number')}</th>
                <th scope="col">{t('numbers.manage.paymentDate')}</th>
                <th scope="col">{t('numbers.manage.monthRent')}</th>
                <th scope="col">{t('numbers.manage.status')}</th>
                <th scope="col">{t('numbers.manage.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((n) => (
                <tr key={n.telCode + n.phone}>
                  {/* data-label: the column's name beside the value when a narrow window stacks the row */}
                  <td data-label={t('numbers.manage.number')}>{formatFullNumber(n.telCode + n.phone)}</td>
                  <td data-label={t('numbers.manage.paymentDate')}>
                    {n.autoRenew ? (
                      n.paymentDate.slice(0, 10)
                    ) : (
                      // unsubscribed: kept until its payment date, then released (issue 20)
                      <span>
                        {t('numbers.manage.releasedOn', { date: n.paymentDate.slice(0, 10) })}
                        <span className="muted numbers-no-renewal">{t('numbers.manage.noRenewal')}</span>
                      </span>
                    )}
                  </td>
                  <td data-label={t('numbers.manage.monthRent')}>{money(n.monthRent)}</td>
                  <td data-label={t('numbers.manage.status')}>{t(`numbers.manage.statuses.${status}`)}</td>
                  <td className="numbers-row-actions">
                    <Button
                      className="link-button"
                      aria-label={t('numbers.manage.manageNumber', {
                        number: formatFullNumber(n.telCode + n.phone),
                      })}
                      onPress={() => setManaging(n.telCode + n.phone)}
                    >
                      {t('numbers.manage.manage')}
                    </Button>
                    {n.autoRenew && (
                      <Button
                        className="link-button"
                        aria-label={t('numbers.manage.unsubscribeNumber', {
                          number: formatFullNumber(n.telCode + n.phone),
                        })}
                        onPress={() => {
                          setError(null);
                          setLeaving(n);
                        }}
                      >
                        {t('numbers.manage.unsubscribe')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {shown.length === 0 && <p className="muted">{t('numbers.manage.noMatch')}</p>}
        </>
      )}
      <Dialog
        isOpen={!!leaving}
        onClose={() => setLeaving(null)}
        role="alertdialog"
        title={t('numbers.manage.unsubscribeTitle')}
        footer={
          <>
            <Button className="button" onPress={() => setLeaving(null)}>
              {t('app.cancel')}
            </Button>
            <Button
              className="button danger"
              isDisabled={unsubscribe.isPending}
              onPress={() => leaving && unsubscribe.mutate(leaving)}
            >
              {unsubscribe.isPending ? <Spinner size={16} /> : t('numbers.manage.unsubscribe')}
            </Button>
          </>
        }
      >
        {leaving && (
          <p>
            {t('numbers.manage.unsubscribeText', {
              number: formatFullNumber(leaving.telCode + leaving.phone),
              date: leaving.paymentDate,
            })}
          </p>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </Dialog>
    </section>
  );
}
