import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type VerificationNumber } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Loading, LoadFailed } from '../../components/Spinner';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { refreshCodes, useAccountNumbers } from './api/codes';
import { releaseCodeNumber } from './api/keep';
import { SubscribeButton } from './Subscribe';
import './codes.css';

/**
 * Number management (spec 001 §3 Subscription state): every verification number of the account;
 * not subscribed (0) shows the end of validity with Subscribe, subscribed (1) the next payment date
 * and monthly rent with Unsubscribe. Subscribing or unsubscribing reloads the list.
 */
export default function NumbersPanel() {
  const { t } = useTranslation();
  const numbers = useAccountNumbers('');
  const navigate = useUi((s) => s.navigate);
  const [unsub, setUnsub] = useState<VerificationNumber | null>(null);
  const reload = () => void refreshCodes();

  return (
    <section className="panel" aria-labelledby="codes-numbers-title">
      <h2 id="codes-numbers-title">{t('codes.numbersTitle')}</h2>
      {numbers.isPending ? (
        <Loading label={t('app.loading')} />
      ) : numbers.isError ? (
        <LoadFailed onRetry={() => numbers.refetch()} />
      ) : numbers.data.numbers.length === 0 ? (
        <div className="codes-empty">
          <p className="muted">{t('codes.noRecent')}</p>
          <Button className="button primary" onPress={() => navigate('verification')}>
            {t('codes.tabNew')}
          </Button>
        </div>
      ) : (
        <table className="codes-table">
          <thead>
            <tr>
              <th scope="col">{t('codes.colNumber')}</th>
              <th scope="col">{t('codes.service')}</th>
              <th scope="col">{t('codes.colState')}</th>
              <th scope="col">{t('codes.colDate')}</th>
              <th scope="col">{t('codes.colRent')}</th>
              <th scope="col" aria-label={t('codes.colActions')} />
            </tr>
          </thead>
          <tbody>
            {numbers.data.numbers.map((n) => (
              <tr key={`${n.app}:${n.phone}`}>
                <td>+{n.phone}</td>
                <td>{n.name}</td>
                <td>{n.subStatus === 1 ? t('codes.stateSubscribed') : t('codes.stateNotSubscribed')}</td>
                <td>{n.nextPaymentDate}</td>
                <td>{money(n.subStatus === 1 ? n.monthRent : n.subRent)}</td>
                <td>
                  {n.subStatus === 1 ? (
                    <Button className="button" onPress={() => setUnsub(n)}>
                      {t('codes.unsubscribe')}
                    </Button>
                  ) : (
                    <SubscribeButton app={n.app} number={n.phone} rent={n.subRent} onDone={reload} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog
        title={t('codes.unsubscribeTitle')}
        isOpen={unsub !== null}
        onClose={() => setUnsub(null)}
        footer={
          <>
            <Button className="button" onPress={() => setUnsub(null)}>
              {t('codes.cancel')}
            </Button>
            <Button
              className="button danger"
              onPress={async () => {
                if (unsub) await releaseCodeNumber(unsub.app, unsub.phone);
                setUnsub(null);
                reload();
              }}
            >
              {t('codes.unsubscribe')}
            </Button>
          </>
        }
      >
        <p>{t('codes.unsubscribeText', { date: unsub?.nextPaymentDate ?? '' })}</p>
      </Dialog>
    </section>
  );
}
