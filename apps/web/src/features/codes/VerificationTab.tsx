import { lazy, Suspense, useState } from 'react';
import { Button, Link, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { isApiError } from '../../lib/api';
import { brand } from '../../lib/config';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { useBalance } from '../../shared/api/account';
import { AdBanner } from '../../shared/ads/AdBanner';
import { handleProfileRequired } from '../../shared/dialogs/billingProfile';
import { GetNumber } from './GetNumber';
import { ReceivePanel } from './ReceivePanel';
import { useReceive } from './useReceive';
import { refreshCodes, useCodeCatalogue } from './api/codes';
import { Loading } from '../../components/Spinner';
import { lazyNamed } from '../../components/lazy';

const NumbersPanel = lazy(() => import('./NumbersPanel'));
const HistoryPanel = lazy(() => import('./HistoryPanel'));
// jiema's second tab only, with react-aria's select and list box (the pickers chunk): fetched when
// that tab is first opened, not with the page (issue 24 §3)
const RecentNumbers = lazyNamed(() => import('./RecentNumbers'), 'RecentNumbers');
import './codes.css';

/** Balance with recharge, the subscribe tip and contact support (the page's footer or right column). */
function SideCards() {
  const { t } = useTranslation();
  const balance = useBalance();
  const navigate = useUi((s) => s.navigate);
  return (
    <aside className="codes-side" aria-label={t('codes.sideLabel')}>
      <div className="codes-card">
        <div className="muted small">{t('codes.balance')}</div>
        <div className="balance-amount" data-testid="codes-balance">
          {balance.data ? money(balance.data.balance) : '…'}
        </div>
        <Button className="button primary" onPress={() => navigate('tabAccount', 'credit')}>
          {t('codes.recharge')}
        </Button>
      </div>
      <AdBanner />
      <div className="codes-card">
        <h3 className="codes-card-title">{t('codes.keepTipTitle')}</h3>
        <p className="muted small">{t('codes.keepTip')}</p>
      </div>
      <div className="codes-card">
        <h3 className="codes-card-title">{t('codes.helpTitle')}</h3>
        <p className="muted small">{t('codes.help')}</p>
        <Link href={`mailto:${brand.supportEmail}`}>{t('codes.contact')}</Link>
      </div>
    </aside>
  );
}

/**
 * The Verification tab: on jiema the Chinese two-tab page (spec 001 §2 'Chinese verification
 * page'), elsewhere the new-code page; both get a number for an app and receive its code, paying
 * only for a code that arrives. While a number is being received on, every other control is disabled
 * ('running'); touching one asks to press Done first.
 */
export default function VerificationTab() {
  const { t } = useTranslation();
  const jiema = brand.id === 'jiema';
  const receive = useReceive();
  const catalogue = useCodeCatalogue();
  const showAlert = useUi((s) => s.showAlert);
  const showError = useUi((s) => s.showError);
  const [noNumber, setNoNumber] = useState(false);
  const [runningDialog, setRunningDialog] = useState(false);
  const [view, setView] = useState<'new' | 'numbers' | 'history'>('new');
  const running = receive.running;

  const start = async (p: { app: string; code: string; number?: string | undefined; numberType?: 1 | 2 }) => {
    try {
      await receive.lock(p);
      return true;
    } catch (e) {
      if (!isApiError(e)) throw e;
      if (e.retcode === 500000) setNoNumber(true);
      else if (e.retcode === 400001) showError({ kind: 'insufficient', message: e.retmsg });
      else if (e.retcode === 100023) handleProfileRequired(e.data, 'other');
      else showAlert(e.retmsg);
      return false;
    }
  };
  const flowProps = { start, running, locking: receive.locking };
  const lockedApp = receive.state?.lock.app;
  const appName = catalogue.data?.appList.find((a) => a.app === lockedApp)?.name ?? lockedApp ?? '';

  const menu = !jiema && (
    <nav className="codes-menu" aria-label={t('codes.menuLabel')}>
      {(
        [
          ['new', t('codes.menuNew')],
          ['numbers', t('codes.numbersTitle')],
          ['history', t('codes.historyTitle')],
        ] as const
      ).map(([id, label]) => (
        <Button
          key={id}
          className={`codes-menu-item ${view === id ? 'active' : ''}`}
          aria-current={view === id ? 'page' : undefined}
          onPress={() => (running && id !== 'new' ? setRunningDialog(true) : setView(id))}
        >
          {id === 'new' && <span aria-hidden="true">＋ </span>}
          {label}
        </Button>
      ))}
    </nav>
  );

  if (view !== 'new')
    return (
      <div className="codes-page codes-page-menu">
        {menu}
        <div className="codes-main">
          <Suspense fallback={<Loading label={t('app.loading')} />}>
            {view === 'numbers' ? <NumbersPanel /> : <HistoryPanel />}
          </Suspense>
        </div>
      </div>
    );

  return (
    <div className={`codes-page ${jiema ? 'codes-page-jiema' : 'codes-page-menu codes-page-side'}`}>
      {menu}
      <div className="codes-main">
        <h2 className="codes-title">{t('codes.title')}</h2>
        <div className="codes-step1-wrap">
          {jiema ? (
            <Tabs className="codes-tabs" isDisabled={running}>
              <TabList aria-label={t('codes.title')} className="segmented">
                <Tab id="new" className="segment">
                  {t('codes.tabNew')}
                </Tab>
                <Tab id="recent" className="segment">
                  {t('codes.tabRecent')}
                </Tab>
              </TabList>
              <TabPanel id="new" shouldForceMount className="codes-tabpanel">
                <GetNumber layout="jiema" {...flowProps} />
              </TabPanel>
              <TabPanel id="recent" className="codes-tabpanel">
                <Suspense fallback={<Loading label={t('app.loading')} />}>
                  <RecentNumbers {...flowProps} />
                </Suspense>
              </TabPanel>
            </Tabs>
          ) : (
            <GetNumber layout="newCode" {...flowProps} />
          )}
          {running && (
            <button
              type="button"
              className="codes-running-cover"
              aria-label={t('codes.runningAlert')}
              onClick={() => setRunningDialog(true)}
            />
          )}
        </div>
        {receive.state && (
          <ReceivePanel
            r={receive.state}
            appName={appName}
            tip={receive.tip}
            setTip={receive.setTip}
            busy={receive.locking}
            onTryAnother={() => void start({ app: receive.state!.lock.app, code: receive.state!.country })}
            onDone={() => {
              void receive.done().then(() => refreshCodes());
            }}
          />
        )}
      </div>
      {/* after the services: on a phone the cards sit below them, and came first only to be pushed
          down the screen when the list arrived (a layout shift, issue 24 §3) */}
      {!catalogue.isPending && <SideCards />}
      <Dialog
        title={t('codes.noNumberTitle')}
        isOpen={noNumber}
        onClose={() => setNoNumber(false)}
        role="alertdialog"
        footer={
          <Button className="button primary" onPress={() => setNoNumber(false)}>
            {t('codes.ok')}
          </Button>
        }
      >
        <p>{t('codes.noNumber')}</p>
      </Dialog>
      <Dialog
        title={t('codes.runningTitle')}
        isOpen={runningDialog}
        onClose={() => setRunningDialog(false)}
        role="alertdialog"
        footer={
          <Button className="button primary" onPress={() => setRunningDialog(false)}>
            {t('codes.ok')}
          </Button>
        }
      >
        <p>{t('codes.runningAlert')}</p>
      </Dialog>
    </div>
  );
}
