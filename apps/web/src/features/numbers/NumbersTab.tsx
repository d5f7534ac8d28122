import { Suspense, lazy, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { BackButton } from '../../components/BackButton';
import { Dialog } from '../../components/Dialog';
import { HelpIcon } from '../../components/icons';
import { Loading } from '../../components/Spinner';
import { brand } from '../../lib/config';
import { storage } from '../../lib/storage';
import { useUi } from '../../stores/ui';
import { openPlans, usePlansNav } from './plans/store';
import { useOwnNumbers } from '../../shared/api/account';
import '../../components/panelTable.css';
import './numbers.css';

const NewNumber = lazy(() => import('./NewNumber'));
const NumberManagement = lazy(() => import('./NumberManagement'));
const SubscriptionHistory = lazy(() => import('./SubscriptionHistory'));
const CallSettings = lazy(() => import('./CallSettings'));
const PlansPanel = lazy(() => import('./plans/PlansPanel'));

const tipSeenKey = 'numa.numbersTipSeen';

export type NumbersPanel = 'newNumber' | 'management' | 'history' | 'settings' | 'plans';

/**
 * The numbers area (spec 001 §2 Numbers area): a left menu with the New number button, Number
 * management and Subscription history; one panel at a time.
 */
export default function NumbersTab() {
  const { t } = useTranslation();
  const [panel, setPanel] = useState<NumbersPanel>(() =>
    usePlansNav.getState().pending ? 'plans' : 'newNumber',
  );
  // the embedded plans panel opens from the numa notice and on the way back from Recharge
  const plansPending = usePlansNav((s) => s.pending);
  // a narrow window shows the menu or one panel (issue 13 §3.15): the menu when the tab opens, a
  // panel once one is chosen (or the plans are asked for)
  const [menuShown, setMenuShown] = useState(() => !usePlansNav.getState().pending);
  if (plansPending && panel !== 'plans') {
    setPanel('plans');
    setMenuShown(false);
  }
  const open = (p: NumbersPanel) => {
    setPanel(p);
    setMenuShown(false);
  };
  const navigate = useUi((s) => s.navigate);
  // the first-open tip and the help icon that reopens it (not on wetalk or cloudnumber)
  const [tip, setTip] = useState(() => brand.numbersTip && !storage.get(tipSeenKey));
  const closeTip = () => {
    storage.set(tipSeenKey, '1');
    setTip(false);
  };
  const mine = useOwnNumbers();
  // Settings shows only if forwarding or voicemail is available (spec 001 §2)
  const settings = !!mine.data && (mine.data.canForward || mine.data.canVoicemail);
  const item = (p: NumbersPanel) => (
    <li key={p}>
      <Button
        className={`side-item ${p === panel ? 'active' : ''}`}
        aria-current={p === panel ? 'page' : undefined}
        onPress={() => open(p)}
      >
        {t(`numbers.menu.${p}`)}
      </Button>
    </li>
  );
  return (
    <div className="split numbers-area" data-pane={menuShown ? 'list' : 'detail'}>
      <nav className="side-menu" aria-label={t('numbers.menu.label')}>
        <Button className="button primary block new-number-button" onPress={() => open('newNumber')}>
          + {t('numbers.menu.newNumber')}
        </Button>
        {brand.numbersTip && (
          <Button className="side-item numbers-help" onPress={() => setTip(true)}>
            <HelpIcon width={18} height={18} aria-hidden="true" /> {t('numbers.tip.help')}
          </Button>
        )}
        <ul>
          {(settings
            ? (['management', 'history', 'settings'] as const)
            : (['management', 'history'] as const)
          ).map(item)}
        </ul>
      </nav>
      <Dialog
        isOpen={tip}
        onClose={closeTip}
        title={t('numbers.tip.title')}
        footer={
          <>
            <Button className="button" onPress={closeTip}>
              {t('app.close')}
            </Button>
            <Button
              className="button primary"
              onPress={() => {
                closeTip();
                navigate('tabAccount', 'profile');
              }}
            >
              {t('numbers.tip.verify')}
            </Button>
          </>
        }
      >
        <p>{t('numbers.tip.text')}</p>
      </Dialog>
      <div className="split-main">
        <div className="pane-back narrow-only">
          <BackButton
            place={t('numbers.menu.label')}
            onPress={() => setMenuShown(true)}
            focusNext={['.numbers-area .side-item.active', '.numbers-area .new-number-button']}
          />
        </div>
        <Suspense fallback={<Loading label={t('app.loading')} />}>
          {panel === 'newNumber' && <NewNumber onDone={() => setPanel('management')} />}
          {panel === 'management' && (
            <NumberManagement onNew={() => setPanel('newNumber')} onPlans={openPlans} />
          )}
          {panel === 'plans' && <PlansPanel onClose={() => setPanel('management')} />}
          {panel === 'history' && <SubscriptionHistory onPlans={openPlans} />}
          {panel === 'settings' && settings && <CallSettings />}
        </Suspense>
      </div>
    </div>
  );
}
