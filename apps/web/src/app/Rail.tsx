import type { ReactNode } from 'react';
import { Button, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type RailTab } from '@numa/contract';
import {
  ChatIcon,
  ContactsIcon,
  HashIcon,
  HelpIcon,
  LogoutIcon,
  ShieldIcon,
  UserIcon,
} from '../components/icons';
import { brand } from '../lib/config';
import { useUi } from '../stores/ui';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { tabs } from './visibility';

const icons: Record<RailTab, ReactNode> = {
  chats: <ChatIcon />,
  verification: <ShieldIcon />,
  numbers: <HashIcon />,
  contacts: <ContactsIcon />,
  tabAccount: <UserIcon />,
};

export const unreadLabel = (n: number) => (n > constants.unreadCap ? `${constants.unreadCap}+` : String(n));

/** The left rail: the brand's tabs, the language switch, help and log out (spec 000 §2). */
export function Rail() {
  const { t, i18n } = useTranslation();
  const tab = useUi((s) => s.tab);
  const unread = useUi((s) => s.unread);
  const navigate = useUi((s) => s.navigate);
  const setConfirmLogout = useUi((s) => s.setConfirmLogout);
  const name = brand.name[i18n.language === 'zh' ? 'zh' : 'en'];
  const help = `mailto:${brand.supportEmail}?subject=${encodeURIComponent(t('rail.helpSubject', { brand: name }))}`;
  return (
    <nav className="rail" aria-label={t('rail.nav')}>
      <span className="rail-brand" title={name} aria-hidden="true">
        {name.slice(0, 1)}
      </span>
      <ul className="rail-tabs">
        {tabs.map((id) => (
          <li key={id}>
            <Button
              className={`rail-tab ${tab === id ? 'active' : ''}`}
              aria-current={tab === id ? 'page' : undefined}
              onPress={() => navigate(id)}
            >
              {icons[id]}
              <span className="rail-label">{t(`tabs.${id}`)}</span>
              {id === 'chats' && unread > 0 && (
                <span className="badge" aria-label={t('rail.unreadBadge', { n: unreadLabel(unread) })}>
                  {unreadLabel(unread)}
                </span>
              )}
            </Button>
          </li>
        ))}
      </ul>
      <div className="rail-bottom">
        <LanguageSwitch className="rail-action lang-switch" />
        <Link className="rail-action" href={help} aria-label={t('rail.help')}>
          <HelpIcon />
          <span className="rail-label">{t('rail.help')}</span>
        </Link>
        <Button className="rail-action" onPress={() => setConfirmLogout(true)}>
          <LogoutIcon />
          <span className="rail-label">{t('rail.logout')}</span>
        </Button>
      </div>
    </nav>
  );
}
