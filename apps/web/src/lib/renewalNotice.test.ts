import { beforeAll, describe, expect, it } from 'vitest';
import { useUi } from '../stores/ui';
import { i18nReady, setLang } from './i18n';
import { applyRenewalFailed } from './renewalNotice';

describe('renewalFailed socket event', () => {
  beforeAll(async () => {
    await i18nReady;
  });

  it('tells the user in the insufficient-balance dialog (Recharge), in their language; a malformed event is ignored', async () => {
    await setLang('en');
    applyRenewalFailed({ number: '14155550123', reclaimOn: '2026-04-04' });
    expect(useUi.getState().errorDialog).toEqual({
      kind: 'insufficient',
      title: 'Your number could not be renewed',
      message:
        'Your balance is too low to pay the rent of +1 415 555 0123. Top up before 2026-04-04 to keep it; after that date the number is reclaimed.',
    });
    useUi.getState().showError(null);
    await setLang('zh');
    applyRenewalFailed({ number: '14155550123', reclaimOn: '2026-04-04' });
    expect(useUi.getState().errorDialog?.title).toBe('号码续费失败');
    useUi.getState().showError(null);
    applyRenewalFailed({ number: '+1 415', reclaimOn: 'soon' });
    expect(useUi.getState().errorDialog).toBeNull();
    await setLang('en');
  });
});
