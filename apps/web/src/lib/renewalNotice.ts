import { parsePhone, RenewalFailedEvent } from '@numa/contract';
import { useUi } from '../stores/ui';
import { i18n } from './i18n';

/**
 * The server's `renewalFailed` socket event (issue 11): a number's rent could not be paid, so the
 * user is told at once, wherever they are, that it is kept until `reclaimOn` and how to keep it, with
 * Recharge offered as in every insufficient-balance dialog (issue 20).
 */
export function applyRenewalFailed(raw: unknown) {
  const parsed = RenewalFailedEvent.safeParse(raw);
  if (!parsed.success) return;
  const { number, reclaimOn } = parsed.data;
  const shown = parsePhone(number)?.formatInternational() ?? `+${number}`;
  // the insufficient-balance dialog of the spec, with its own title: Recharge is one press away
  useUi.getState().showError({
    kind: 'insufficient',
    title: i18n.t('numbers.renewalFailed.title'),
    message: i18n.t('numbers.renewalFailed.message', { number: shown, date: reclaimOn }),
  });
}
