import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { shortcutsFor, type Shortcut } from '../lib/shortcuts';
import { tabs } from './visibility';
import './shortcuts.css';

const groups: Shortcut['group'][] = ['general', 'chats', 'tabs'];

/** A key as the dialog shows it: each part in its own <kbd> (Ctrl, Alt, ⌘, arrows as symbols). */
function Keys({ k }: { k: string }) {
  const { t } = useTranslation();
  const parts = k.split('+');
  return (
    <kbd className="shortcut-keys">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && '+'}
          <kbd>{t(`shortcuts.keyNames.${p}`, { defaultValue: p })}</kbd>
        </Fragment>
      ))}
    </kbd>
  );
}

/** The `?` dialog (issue 22 §4): every shortcut of this brand, from the one registry (lib/shortcuts.ts). */
export function ShortcutsDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const list = shortcutsFor(tabs);
  const what = (s: Shortcut) =>
    s.id.startsWith('tab.')
      ? t('shortcuts.actions.tab', { tab: t(`tabs.${s.id.slice(4)}`) })
      : t(`shortcuts.actions.${s.id}`);
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('shortcuts.title')}
      width={520}
      className="shortcuts-dialog"
    >
      <p className="muted">{t('shortcuts.rule')}</p>
      {/* the list scrolls in a short window: focusable, so the keyboard scrolls it too */}
      <div className="shortcuts-scroll" tabIndex={0} role="group" aria-label={t('shortcuts.title')}>
        {groups.map((g) => {
          const items = list.filter((s) => s.group === g);
          if (!items.length) return null;
          return (
            <section key={g} className="shortcuts-group" aria-labelledby={`shortcuts-${g}`}>
              <h3 id={`shortcuts-${g}`}>{t(`shortcuts.groups.${g}`)}</h3>
              <dl className="shortcuts-list">
                {items.map((s) => (
                  <div key={s.id} className="shortcuts-row">
                    <dt>{what(s)}</dt>
                    <dd>
                      {s.keys.map((k, i) => (
                        <Fragment key={k}>
                          {i > 0 && <span className="muted"> {t('shortcuts.or')} </span>}
                          <Keys k={k} />
                        </Fragment>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          );
        })}
      </div>
    </Dialog>
  );
}
