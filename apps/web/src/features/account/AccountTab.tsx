import { Suspense, useEffect, useMemo } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { AccountPanel } from '@numa/contract';
import { Loading } from '../../components/Spinner';
import { LogoutIcon } from '../../components/icons';
import { useSession } from '../../stores/session';
import { useUi } from '../../stores/ui';
import { visiblePanels } from '../../app/visibility';
import { panelViews } from './panels';

/** The account tab: a left menu of panels, one shown at a time, and Log out (spec 000 §2). */
export default function AccountTab() {
  const { t } = useTranslation();
  const canInvite = useSession((s) => s.canInvite);
  const canSetInviter = useSession((s) => s.canSetInviter);
  const frontPage = useUi((s) => s.frontPage);
  const panel = useUi((s) => s.panel);
  const navigate = useUi((s) => s.navigate);
  const setConfirmLogout = useUi((s) => s.setConfirmLogout);
  const panels = useMemo(
    () => visiblePanels({ canInvite, canSetInviter, frontPage }, new Set(Object.keys(panelViews) as AccountPanel[])),
    [canInvite, canSetInviter, frontPage],
  );
  const current = panels.includes(panel) ? panel : panels[0];
  useEffect(() => {
    if (current && current !== panel) navigate('tabAccount', current, { replace: true });
  }, [current, panel, navigate]);
  const View = current ? panelViews[current] : undefined;

  return (
    <div className="split">
      <nav className="side-menu" aria-label={t('account.menu')}>
        <ul>
          {panels.map((p) => (
            <li key={p}>
              <Button className={`side-item ${p === current ? 'active' : ''}`} aria-current={p === current ? 'page' : undefined} onPress={() => navigate('tabAccount', p)}>
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
        <Suspense fallback={<Loading label={t('app.loading')} />}>{View && <View />}</Suspense>
      </div>
    </div>
  );
}
