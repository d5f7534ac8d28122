import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Switch } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { LoadFailed, Loading } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { useOwnNumbers } from '../../shared/api/account';
import { useUi } from '../../stores/ui';
import { setCallHandling } from './api/manage';

/**
 * Settings (spec 001 §2): forward calls to the account phone, or take them as voicemail; each switch
 * only when the plans allow it; turning one on turns the other off (the server answers both).
 */
export default function CallSettings() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const mine = useOwnNumbers();
  const showAlert = useUi((s) => s.showAlert);
  const save = useMutation({
    mutationFn: (p: { which: 'forward' | 'voicemail'; on: boolean }) => setCallHandling(p.which, p.on),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.account.ownNumbers(), (old: typeof mine.data) =>
        old ? { ...old, ...r } : old,
      );
    },
    onError: (e) => showAlert(isApiError(e) ? e.retmsg : t('errors.generic')),
  });
  if (mine.isPending) return <Loading label={t('app.loading')} />;
  if (mine.isError) return <LoadFailed onRetry={() => mine.refetch()} />;
  const d = mine.data;
  return (
    <section className="numbers-panel" aria-labelledby="call-settings-title">
      <h2 id="call-settings-title">{t('numbers.settings.title')}</h2>
      {d.canForward && (
        <Switch
          className="settings-switch"
          isSelected={d.forwardStatus === 1}
          isDisabled={save.isPending}
          onChange={(on) => save.mutate({ which: 'forward', on })}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span>
            <strong>{t('numbers.settings.forward')}</strong>
            <span className="muted settings-hint">{t('numbers.settings.forwardHint')}</span>
          </span>
        </Switch>
      )}
      {d.canVoicemail && (
        <Switch
          className="settings-switch"
          isSelected={d.voicemailStatus === 1}
          isDisabled={save.isPending}
          onChange={(on) => save.mutate({ which: 'voicemail', on })}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span>
            <strong>{t('numbers.settings.voicemail')}</strong>
            <span className="muted settings-hint">{t('numbers.settings.voicemailHint')}</span>
          </span>
        </Switch>
      )}
    </section>
  );
}
