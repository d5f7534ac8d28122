import { Suspense, lazy, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Spinner';
import { useMyNumbers } from './api';
import './numbers.css';

const NewNumber = lazy(() => import('./NewNumber'));
const NumberManagement = lazy(() => import('./NumberManagement'));
const SubscriptionHistory = lazy(() => import('./SubscriptionHistory'));
const CallSettings = lazy(() => import('./CallSettings'));

export type NumbersPanel = 'newNumber' | 'management' | 'history' | 'settings';

/**
 * The numbers area (spec 001 §2 Numbers area): a left menu with the New number button, Number
 * management and Subscription history; one panel at a time.
 */
export default function NumbersTab() {
  const { t } = useTranslation();
  const [panel, setPanel] = useState<NumbersPanel>('newNumber');
  const mine = useMyNumbers();
  // Settings shows only if forwarding or voicemail is available (spec 001 §2)
  const settings = !!mine.data && (mine.data.canForward || mine.data.canVoicemail);
  const item = (p: NumbersPanel) => (
    <li key={p}>
      <Button
        className={`side-item ${p === panel ? 'active' : ''}`}
        aria-current={p === panel ? 'page' : undefined}
        onPress={() => setPanel(p)}
      >
        {t(`numbers.menu.${p}`)}
      </Button>
    </li>
  );
  return (
    <div className="split numbers-area">
      <nav className="side-menu" aria-label={t('numbers.menu.label')}>
        <Button className="button primary block new-number-button" onPress={() => setPanel('newNumber')}>
          + {t('numbers.menu.newNumber')}
        </Button>
        <ul>
          {(settings
            ? (['management', 'history', 'settings'] as const)
            : (['management', 'history'] as const)
          ).map(item)}
        </ul>
      </nav>
      <div className="split-main">
        <Suspense fallback={<Loading label={t('app.loading')} />}>
          {panel === 'newNumber' && <NewNumber onDone={() => setPanel('management')} />}
          {panel === 'management' && <NumberManagement onNew={() => setPanel('newNumber')} />}
          {panel === 'history' && <SubscriptionHistory />}
          {panel === 'settings' && settings && <CallSettings />}
        </Suspense>
      </div>
    </div>
  );
}
