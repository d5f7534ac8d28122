import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ArrowLeftIcon } from './icons';

/**
 * Back from a detail pane to its list, shown only on a narrow window, where a split screen shows one
 * pane at a time (issue 13 §3.15; `.narrow-only` in styles.css). `place` names the list. The button
 * leaves with its pane, so the focus goes to the first of `focusNext` (CSS selectors) that is shown:
 * the item the user came from, or else the list.
 */
export function BackButton({
  place,
  onPress,
  focusNext = [],
}: {
  place: string;
  onPress: () => void;
  focusNext?: string[];
}) {
  const { t } = useTranslation();
  return (
    <Button
      className="icon-button back-button narrow-only"
      aria-label={t('app.backTo', { place })}
      onPress={() => {
        onPress();
        // the list may draw its rows a few frames after it shows (a virtual list measures first):
        // wait up to 10 frames for the first choice, then take the first of the others shown
        const attempt = (framesLeft: number) => {
          for (const selector of framesLeft > 0 ? focusNext.slice(0, 1) : focusNext) {
            const el = document.querySelector<HTMLElement>(selector);
            if (el && el.offsetParent !== null) return el.focus();
          }
          if (framesLeft > 0) requestAnimationFrame(() => attempt(framesLeft - 1));
        };
        requestAnimationFrame(() => attempt(10));
      }}
    >
      <ArrowLeftIcon />
    </Button>
  );
}
