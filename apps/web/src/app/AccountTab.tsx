import { Suspense, useEffect, useMemo } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { AccountPanel } from '@numa/contract';
import { Loading } from '../components/Spinner';
import { LogoutIcon } from '../components/icons';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { BackButton } from '../components/BackButton';
import { useAccountInfo } from '../shared/api/account';
import { panelViews } from './panels';
import { visiblePanels } from './visibility';

/** The account tab: a left menu of panels, one shown at a time, and Log out (spec 000 §2). */
export default function AccountTab() {
  const { t } = useTranslation();
  const canInvite = useSession((s) => s.canInvite);
  const canSetInviter = useSession((s) => s.canSetInviter);
  const frontPage = useUi((s) => s.frontPage);
  const panel = useUi((s) => s.panel);
  const navigate = useUi((s) => s.navigate);
  const accountMenu = useUi((s) => s.accountMenu);
  const showAccountMenu = useUi((s) => s.showAccountMenu);
  const setConfirmLogout = useUi((s) => s.setConfirmLogout);
  // a session restored from storage may not know its invite flags yet: the server's answer decides,
  // and a panel asked for by its path is not left before it came (it showed Profile instead)
  const info = useAccountInfo();
  const settled = !info.isPending;
  const flags = info.data
    ? { canInvite: info.data.canInvite, canSetInviter: info.data.canSetInviter }
    : { canInvite, canSetInviter };
  const panels = useMemo(
    () => visiblePanels({ ...flags, frontPage }, new Set(Object.keys(panelViews) as AccountPanel[])),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the two flags are what matters
    [flags.canInvite, flags.canSetInviter, frontPage],
  );
  const current = panels.includes(panel) ? panel : settled ? panels[0] : undefined;
  useEffect(() => {
    if (settled && current && current !== panel) navigate('tabAccount', current, { replace: true });
  }, [settled, current, panel, navigate]);
  const View = current ? panelViews[current] : undefined;

  return (
    <div className="split" data-pane={accountMenu ? 'list' : 'detail'}>
      <nav className="side-menu" aria-label={t('account.menu')}>
        <ul>
          {panels.map((p) => (
            <li key={p}>
              <Button
                className={`side-item ${p === current ? 'active' : ''}`}
                aria-current={p === current ? 'page' : undefined}
                onPress={() => navigate('tabAccount', p)}
              >
                {t(`account.panels.${p}`)}
              </Button>
            </li>
          ))}
          <li>
            <Button className="side-item" onPress={() => setConfirmLogout(true)}>
              <LogoutIcon width={18} height={18} /> {t('rail.logout')}
            </Button>
          </li>
        </ul>
      </nav>
      <div className="split-main">
        <div className="pane-back narrow-only">
          <BackButton
            place={t('account.menu')}
            onPress={showAccountMenu}
            focusNext={['.side-menu .side-item.active', '.side-menu .side-item']}
          />
        </div>
        <Suspense fallback={<Loading label={t('app.loading')} />}>
          {View ? <View /> : !settled && <Loading label={t('app.loading')} />}
        </Suspense>
      </div>
    </div>
  );
}
