import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type PlanChangeOption } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { handleProfileRequired, isProfileRequired } from '../../shared/dialogs/billingProfile';
import { formatFullNumber } from '../../lib/phone';
import { changePlan, previewPlanChange } from './api/manage';
import { refreshNumbers, useManagePlans } from './api/numbers';
import { useOneAtATime } from '../../lib/oneAtATime';

/**
 * Plan change mode (spec 001 §2, §4), entered from Manage: a back arrow, the number's plans with the
 * current, pending and chosen ones marked; confirm fetches the change options, a dialog asks when the
 * change takes effect (tip, amount, plan name, rule), then a success dialog.
 */
export default function PlanChange({ fullNumber, onBack }: { fullNumber: string; onBack: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const showError = useUi((s) => s.showError);
  const plans = useManagePlans(fullNumber);
  const [target, setTarget] = useState<number | null>(null);
  const [options, setOptions] = useState<PlanChangeOption[] | null>(null);
  const [timing, setTiming] = useState<string>('1');
  const [success, setSuccess] = useState<string | null>(null);
  const fail = (e: unknown) => {
    if (isProfileRequired(e) && isApiError(e)) handleProfileRequired(e.data, 'manageNumber');
    else if (isApiError(e) && e.retcode === 400001) showError({ kind: 'insufficient', message: e.retmsg });
    else showError({ kind: 'error', message: isApiError(e) ? e.retmsg : t('errors.generic') });
  };
  const pre = useMutation({
    mutationFn: (planId: number) => previewPlanChange(fullNumber, planId),
    onSuccess: (r) => {
      setTiming('1');
      setOptions(r.changeList.length ? r.changeList : null);
    },
    onError: fail,
  });
  const change = useOneAtATime({
    mutationFn: (o: PlanChangeOption) => changePlan(fullNumber, o),
    onSuccess: async (r) => {
      setOptions(null);
      setTarget(null);
      setSuccess(r.successHint);
      await refreshNumbers(qc);
    },
    onError: (e) => {
      setOptions(null);
      fail(e);
    },
  });

  const chosen = options?.find((o) => String(o.type) === timing);
  return (
    <section className="numbers-panel" aria-labelledby="plan-change-title">
      <div className="numbers-back">
        <Button className="icon-button" aria-label={t('numbers.new.back')} onPress={onBack}>
          <span aria-hidden="true">←</span>
        </Button>
        <h2 id="plan-change-title">{t('numbers.change.title')}</h2>
      </div>
      <p>
        {t('numbers.new.yourNumber')} <strong>{formatFullNumber(fullNumber)}</strong>
      </p>
      {plans.isPending ? (
        <Loading label={t('app.loading')} />
      ) : plans.isError ? (
        <LoadFailed onRetry={() => plans.refetch()} />
      ) : (
        <>
          <RadioGroup
            className="plan-options"
            value={target ? String(target) : null}
            onChange={(v) => setTarget(Number(v))}
          >
            <Label className="field-label">{t('numbers.change.choose')}</Label>
            {plans.data.planList.map((p) => {
              const current = p.planId === plans.data.currentPlanId;
              const pending = p.planId === plans.data.pendingPlanId;
              return (
                <Radio
                  key={p.planId}
                  value={String(p.planId)}
                  className="plan-option plan-option-wide"
                  isDisabled={current}
                >
                  <span className="plan-option-period">
                    {p.planName} · {t(`numbers.periods.${p.planRentPeriod}`)}
                  </span>
                  <span className="plan-option-price">{money(p.planRent)}</span>
                  <span className="plan-marks">
                    {current && <span className="plan-mark current">{t('numbers.change.current')}</span>}
                    {pending && (
                      <span className="plan-mark pending">
                        {t('numbers.change.pending', { date: plans.data.pendingEffectiveDate })}
                      </span>
                    )}
                    {p.planId === target && (
                      <span className="plan-mark target">{t('numbers.change.target')}</span>
                    )}
                  </span>
                </Radio>
              );
            })}
          </RadioGroup>
          <div className="numbers-actions">
            <Button
              className="button primary"
              isDisabled={!target || pre.isPending}
              onPress={() => target && pre.mutate(target)}
            >
              {pre.isPending ? <Spinner size={16} /> : t('numbers.change.confirm')}
            </Button>
          </div>
        </>
      )}
      <Dialog
        isOpen={!!options}
        onClose={() => setOptions(null)}
        title={t('numbers.change.timingTitle')}
        width={480}
        footer={
          <>
            <Button className="button" onPress={() => setOptions(null)}>
              {t('app.cancel')}
            </Button>
            <Button
              className="button primary"
              isDisabled={!chosen || change.isPending}
              onPress={() => chosen && change.mutate(chosen)}
            >
              {change.isPending ? <Spinner size={16} /> : t('numbers.change.pay')}
            </Button>
          </>
        }
      >
        <RadioGroup
          className="plan-options"
          value={timing}
          onChange={setTiming}
          aria-label={t('numbers.change.timingTitle')}
        >
          {options?.map((o) => (
            <Radio key={o.type} value={String(o.type)} className="plan-option timing-option">
              <strong>{t(o.type === 1 ? 'numbers.change.now' : 'numbers.change.next')}</strong>
              <span className="muted">{o.tip}</span>
            </Radio>
          ))}
        </RadioGroup>
        {chosen && (
          <dl className="details">
            <dt>{t('numbers.change.plan')}</dt>
            <dd>{chosen.planName}</dd>
            <dt>{t('numbers.change.amount')}</dt>
            <dd data-testid="change-amount">{money(chosen.payAmount)}</dd>
            <dt>{t('numbers.change.rule')}</dt>
            <dd>{chosen.rule}</dd>
          </dl>
        )}
      </Dialog>
      <Dialog
        isOpen={success !== null}
        onClose={() => setSuccess(null)}
        role="alertdialog"
        title={t('numbers.change.successTitle')}
        footer={
          <Button className="button primary" autoFocus onPress={() => setSuccess(null)}>
            {t('app.ok')}
          </Button>
        }
      >
        <p>{success}</p>
      </Dialog>
    </section>
  );
}
