import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, ListBox, ListBoxItem, Radio, RadioGroup, Label } from 'react-aria-components';
import { Trans, useTranslation } from 'react-i18next';
import { constants, type NumberCountry, type NumberKind, type Plan } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { brand } from '../../lib/config';
import { money } from '../../lib/money';
import { formatFullNumber } from '../../lib/phone';
import { queryKeys } from '../../lib/queryKeys';
import { useUi } from '../../stores/ui';
import { useBalance } from '../../shared/api/account';
import { AdBanner } from '../../shared/ads/AdBanner';
import { openRecharge } from '../../shared/recharge';
import { handleProfileRequired, isProfileRequired } from '../../shared/dialogs/billingProfile';
import { subscribeNumber } from './api/manage';
import { refreshNumbers, useAreas, useFreeNumbers, usePlans } from './api/numbers';
import { SelectField } from '../../components/SelectField';
import { useOneAtATime } from '../../lib/oneAtATime';
import { forgetDraft, setDraft, useNewNumberDraft } from './draft';

const noProvince = constants.countriesWithoutProvince as readonly string[];
const noAreaCode = constants.countriesWithoutAreaCode as readonly string[];

/**
 * New number (spec 001 §2 steps 1 and 2, §4 New number flow): country, province, area code and a
 * number; then a plan group and price option, the agreement, a confirmation and the result.
 */
export default function NewNumber({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const areas = useAreas();
  // kept across a top-up started here (./draft.ts)
  const { code, province, areaCode, phone, step } = useNewNumberDraft();
  const setProvince = (province: string | null) => setDraft({ province });
  const setAreaCode = (areaCode: string | null) => setDraft({ areaCode });
  const setPhone = (phone: string | null) => setDraft({ phone });
  const setStep = (step: 1 | 2) => setDraft({ step });

  const country = areas.data?.countries.find((c) => c.code === (code ?? areas.data?.defaultCode));
  const kind = country?.typeList[0];
  const provinces = useMemo(() => kind?.provinces ?? [], [kind]);
  const hideProvince = !!country && noProvince.includes(country.code);
  const hideArea = !!country && noAreaCode.includes(country.code);
  // chosen by its code (ISO 3166-2): its name follows the interface language (issue 20)
  const provinceCode = hideProvince ? (provinces[0]?.code ?? '') : province;
  const areaCodes = useMemo(
    () => provinces.find((p) => p.code === provinceCode)?.areaCodes ?? [],
    [provinces, provinceCode],
  );
  const area = hideArea ? undefined : (areaCode ?? undefined);
  const ready = !!country && !!kind && (hideArea || !!area);
  const free = useFreeNumbers(
    ready ? { code: country.code, type: kind.type, telCode: country.telCode, areaCode: area } : null,
  );
  const numbers = useMemo(() => free.data?.numbers ?? [], [free.data]);

  // a new area selects its first number (spec 001 §4), keeping a choice still in the list (back
  // from Recharge); a failed fetch clears the choice; step 2 keeps its number
  useEffect(() => {
    const { phone: kept, step: now } = useNewNumberDraft.getState();
    if (now === 1 && !(kept && numbers.includes(kept))) setDraft({ phone: numbers[0] ?? null });
  }, [numbers]);
  useEffect(() => {
    if (free.isError && useNewNumberDraft.getState().step === 1) setDraft({ phone: null });
  }, [free.isError]);
  // the first province and area code of a country, so numbers show at once
  useEffect(() => {
    if (!country || hideProvince || province) return;
    setDraft({ province: provinces[0]?.code ?? null });
  }, [country, hideProvince, province, provinces]);
  useEffect(() => {
    if (!country || hideArea || areaCode) return;
    setDraft({ areaCode: areaCodes[0] ?? null });
  }, [country, hideArea, areaCode, areaCodes]);

  if (areas.isPending) return <Loading label={t('app.loading')} />;
  if (areas.isError) return <LoadFailed onRetry={() => areas.refetch()} />;
  if (!country || !kind) return null;

  const chooseCountry = (c: string) => {
    setDraft({
      code: c as NumberCountry,
      province: null,
      areaCode: null,
      phone: null,
      group: null,
      planId: null,
    });
  };

  if (step === 2 && phone)
    return (
      <StepTwo
        code={country.code}
        type={kind.type}
        telCode={country.telCode}
        phone={phone}
        onBack={() => setStep(1)}
        onDone={onDone}
      />
    );

  return (
    <section className="numbers-panel" aria-labelledby="new-number-title">
      <h2 id="new-number-title">{t('numbers.new.title')}</h2>
      <p className="muted">{t('numbers.new.step1')}</p>
      <div className="numbers-fields">
        <SelectField
          className="field numbers-select"
          label={t('numbers.new.country')}
          value={country.code}
          options={areas.data.countries.map((c) => ({ id: c.code, name: c.nameNcode }))}
          onChange={chooseCountry}
        />
        {!hideProvince && (
          <SelectField
            className="field numbers-select"
            label={t('numbers.new.province')}
            value={provinceCode}
            options={provinces.map((p) => ({ id: p.code, name: p.name }))}
            onChange={(p) => {
              setProvince(p);
              setAreaCode(null);
            }}
          />
        )}
        {!hideArea && (
          <SelectField
            className="field numbers-select"
            label={t('numbers.new.areaCode')}
            value={areaCode}
            options={areaCodes.map((a) => ({ id: a, name: a }))}
            onChange={setAreaCode}
          />
        )}
      </div>
      <h3 className="numbers-subtitle" id="number-list-label">
        {t('numbers.new.chooseNumber')}
      </h3>
      {free.isPending && ready ? (
        <Spinner label={t('app.loading')} />
      ) : free.isError ? (
        <LoadFailed onRetry={() => free.refetch()} />
      ) : numbers.length === 0 ? (
        <p className="notice" role="status">
          {t('numbers.new.noNumber')}
        </p>
      ) : (
        <ListBox
          aria-labelledby="number-list-label"
          className="number-list"
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={phone ? [phone] : []}
          onSelectionChange={(keys) => {
            const [k] = [...(keys as Set<string>)];
            if (k) setPhone(k);
          }}
          items={numbers.map((n) => ({ id: n }))}
        >
          {(n) => (
            <ListBoxItem
              id={n.id}
              className="number-item"
              textValue={formatFullNumber(country.telCode + n.id)}
            >
              {formatFullNumber(country.telCode + n.id)}
            </ListBoxItem>
          )}
        </ListBox>
      )}
      <div className="numbers-actions">
        <Button
          className="button primary"
          isDisabled={!phone || !numbers.includes(phone)}
          onPress={() => setStep(2)}
        >
          {t('numbers.new.next')}
        </Button>
      </div>
    </section>
  );
}

function StepTwo(p: {
  code: NumberCountry;
  type: NumberKind;
  telCode: string;
  phone: string;
  onBack: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const plans = usePlans(p.code, p.type);
  const balance = useBalance();
  const showError = useUi((s) => s.showError);
  const showAlert = useUi((s) => s.showAlert);
  const list = useMemo(() => plans.data?.planList ?? [], [plans.data]);
  const groups = useMemo(() => [...new Set(list.map((x) => x.planName))], [list]);
  const { group, planId, agreed } = useNewNumberDraft();
  const setGroup = (group: string | null) => setDraft({ group });
  const setPlanId = (planId: number | null) => setDraft({ planId });
  const setAgreed = (agreed: boolean) => setDraft({ agreed });
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const groupName = group ?? groups[0] ?? null;
  const options = list.filter((x) => x.planName === groupName);
  const plan: Plan | undefined = options.find((x) => x.planId === planId) ?? options[0];

  const subscribe = useOneAtATime({
    mutationFn: (pl: Plan) =>
      subscribeNumber({ planId: pl.planId, telCode: p.telCode, phone: p.phone, code: p.code, type: p.type }),
    onSuccess: (res) => {
      setConfirming(false);
      setResult(res.subHint);
      void refreshNumbers(qc);
    },
    onError: (e) => {
      setConfirming(false);
      if (isProfileRequired(e) && isApiError(e)) handleProfileRequired(e.data, 'manageNumber');
      else if (isApiError(e) && e.retcode === 400001) showError({ kind: 'insufficient', message: e.retmsg });
      else if (isApiError(e) && e.retcode === 500000) {
        showAlert(e.retmsg);
        void qc.invalidateQueries({ queryKey: queryKeys.numbers.freeAll });
        p.onBack();
      } else showError({ kind: 'error', message: isApiError(e) ? e.retmsg : t('errors.generic') });
    },
  });

  const full = p.telCode + p.phone;
  return (
    <div className="numbers-step2">
      <section className="numbers-panel" aria-labelledby="plan-title">
        <div className="numbers-back">
          <Button className="icon-button" aria-label={t('numbers.new.back')} onPress={p.onBack}>
            <span aria-hidden="true">←</span>
          </Button>
          <h2 id="plan-title">{t('numbers.new.choosePlan')}</h2>
        </div>
        <p>
          {t('numbers.new.yourNumber')} <strong data-testid="chosen-number">{formatFullNumber(full)}</strong>
        </p>
        {plans.isPending ? (
          <Loading label={t('app.loading')} />
        ) : plans.isError ? (
          <LoadFailed onRetry={() => plans.refetch()} />
        ) : list.length === 0 ? (
          <p className="notice">{t('numbers.new.noPlan')}</p>
        ) : (
          <>
            <RadioGroup
              className="plan-groups"
              value={groupName}
              onChange={(g) => {
                setGroup(g);
                setPlanId(null);
              }}
              orientation="horizontal"
            >
              <Label className="field-label">{t('numbers.new.planGroup')}</Label>
              <div className="plan-group-row">
                {groups.map((g) => (
                  <Radio key={g} value={g} className="plan-chip">
                    {g}
                  </Radio>
                ))}
              </div>
            </RadioGroup>
            <RadioGroup
              className="plan-options"
              value={plan ? String(plan.planId) : null}
              onChange={(v) => setPlanId(Number(v))}
            >
              <Label className="field-label">{t('numbers.new.priceOption')}</Label>
              {options.map((o) => (
                <Radio key={o.planId} value={String(o.planId)} className="plan-option">
                  <span className="plan-option-period">{t(`numbers.periods.${o.planRentPeriod}`)}</span>
                  <span className="plan-option-price">{money(o.planRent)}</span>
                  <span className="muted">
                    {t('numbers.new.perMonth', { amount: money(o.monthRent) })}
                    {o.discount > 0 &&
                      ` · ${t('numbers.new.save', { percent: Math.round(o.discount * 100) })}`}
                  </span>
                </Radio>
              ))}
            </RadioGroup>
            {plan && (
              <div className="plan-desc">
                {plan.planDescList.map((d) => (
                  <div key={d.title}>
                    <h3>{d.title}</h3>
                    <ul>
                      {d.items.map((i) => (
                        <li key={i}>{i}</li>
                      ))}
                    </ul>
                  </div>
                ))}
                <p className="muted">
                  {t('numbers.new.renewsOn', { date: plan.nextPaymentDate })}
                  {plan.activationFee > 0 &&
                    ` · ${t('numbers.new.activationFee', { amount: money(plan.activationFee) })}`}
                </p>
              </div>
            )}
            <Checkbox className="agree-checkbox" isSelected={agreed} onChange={setAgreed}>
              <span className="checkbox-box" aria-hidden="true">
                {agreed ? '✓' : ''}
              </span>
              <span>
                <Trans
                  i18nKey={
                    brand.purchaseInstructionsUrl ? 'numbers.new.agreeWithInstructions' : 'numbers.new.agree'
                  }
                  components={{
                    terms: <a href={brand.termsUrl} target="_blank" rel="noreferrer" />,
                    privacy: <a href={brand.privacyUrl} target="_blank" rel="noreferrer" />,
                    instructions: (
                      <a
                        href={brand.purchaseInstructionsUrl ?? brand.termsUrl}
                        target="_blank"
                        rel="noreferrer"
                      />
                    ),
                  }}
                />
              </span>
            </Checkbox>
            <div className="numbers-actions">
              <Button
                className="button primary large"
                isDisabled={!agreed || !plan || subscribe.isPending}
                onPress={() => setConfirming(true)}
              >
                {t('numbers.new.subscribe')}
              </Button>
            </div>
          </>
        )}
      </section>
      <aside className="numbers-side" aria-label={t('numbers.new.side')}>
        <Button
          className="side-balance"
          onPress={() => openRecharge('numbers')}
          aria-label={t('numbers.new.balanceTopUp')}
        >
          <span className="muted">{t('numbers.new.balance')}</span>
          <strong data-testid="numbers-balance">
            {balance.isPending ? '…' : balance.isError ? '—' : money(balance.data.balance)}
          </strong>
          <span className="link-like">{t('numbers.new.topUp')}</span>
        </Button>
        <AdBanner />
        {plan && (
          <div className="side-tips">
            <h3>{t('numbers.new.tips')}</h3>
            <p>{plan.tip}</p>
          </div>
        )}
      </aside>
      <Dialog
        isOpen={confirming}
        onClose={() => setConfirming(false)}
        title={t('numbers.new.confirmTitle')}
        footer={
          <>
            <Button className="button" onPress={() => setConfirming(false)}>
              {t('app.cancel')}
            </Button>
            <Button
              className="button primary"
              isDisabled={subscribe.isPending}
              onPress={() => plan && subscribe.mutate(plan)}
            >
              {subscribe.isPending ? <Spinner size={16} /> : t('numbers.new.confirm')}
            </Button>
          </>
        }
      >
        {plan && (
          <>
            <p>
              {t('numbers.new.confirmText', {
                number: formatFullNumber(full),
                plan: plan.planName,
                period: t(`numbers.periods.${plan.planRentPeriod}`),
                amount: money(plan.planRent + plan.activationFee),
              })}
            </p>
            <p className="muted">{plan.tip}</p>
          </>
        )}
      </Dialog>
      <Dialog
        isOpen={result !== null}
        onClose={() => {
          setResult(null);
          forgetDraft();
          p.onDone();
        }}
        role="alertdialog"
        title={t('numbers.new.resultTitle')}
        footer={
          <Button
            className="button primary"
            autoFocus
            onPress={() => {
              setResult(null);
              forgetDraft();
              p.onDone();
            }}
          >
            {t('app.ok')}
          </Button>
        }
      >
        <p>{result}</p>
      </Dialog>
    </div>
  );
}
