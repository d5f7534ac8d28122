import { useSyncExternalStore } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { applyTheme, themeChoice, themeKey, type ThemeChoice as Choice } from '../lib/theme';

const choices: readonly Choice[] = ['light', 'dark', 'system'];

const listeners = new Set<() => void>();
/** The choice changes here (setChoice) or in another tab (the storage event). */
function subscribe(fn: () => void) {
  listeners.add(fn);
  window.addEventListener('storage', fn);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', fn);
  };
}

/** Keeps the choice in this browser (System: no key) and applies it at once. */
function setChoice(choice: Choice) {
  try {
    if (choice === 'system') localStorage.removeItem(themeKey);
    else localStorage.setItem(themeKey, choice);
  } catch {
    /* not kept: this page only */
  }
  applyTheme(choice);
  for (const fn of listeners) fn();
}

/**
 * Light / Dark / System (issue 22 §5): a radio group (arrow keys move and choose), kept in this
 * browser (lib/theme.ts); System, the default, follows the system's setting live.
 */
export function ThemeChoice() {
  const { t } = useTranslation();
  const choice = useSyncExternalStore(subscribe, themeChoice);
  return (
    <RadioGroup
      className="theme-choice"
      value={choice}
      onChange={(v) => setChoice(v as Choice)}
      orientation="horizontal"
    >
      <Label className="theme-choice-label">{t('profile.theme.label')}</Label>
      <div className="segmented">
        {choices.map((c) => (
          <Radio key={c} value={c} className="segment">
            {t(`profile.theme.${c}`)}
          </Radio>
        ))}
      </div>
    </RadioGroup>
  );
}
