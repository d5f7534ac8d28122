import { useSyncExternalStore } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { onThemeChange, setThemeChoice, themeChoice, type ThemeChoice as Choice } from '../lib/theme';

const choices: readonly Choice[] = ['light', 'dark', 'system'];

/**
 * Light / Dark / System (issue 22 §5): a radio group (arrow keys move and choose), kept in this
 * browser (lib/theme.ts); System, the default, follows the system's setting live.
 */
export function ThemeChoice() {
  const { t } = useTranslation();
  const choice = useSyncExternalStore(onThemeChange, themeChoice);
  return (
    <RadioGroup
      className="theme-choice"
      value={choice}
      onChange={(v) => setThemeChoice(v as Choice)}
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
