import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ArrowLeftIcon } from './icons';

/**
 * Back from a detail pane to its list, shown only on a narrow window, where a split screen shows one
 * pane at a time (issue 13 §3.15; `.narrow-only` in styles.css). `place` names the list.
 */
export function BackButton({ place, onPress }: { place: string; onPress: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      className="icon-button back-button narrow-only"
      aria-label={t('app.backTo', { place })}
      onPress={onPress}
    >
      <ArrowLeftIcon />
    </Button>
  );
}
