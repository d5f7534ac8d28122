import { useEffect, useMemo, useState } from 'react';
import { Button, Checkbox, Input, Label, Radio, RadioGroup, SearchField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { SelectField } from '../../components/SelectField';
import { Loading, LoadFailed } from '../../components/Spinner';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { useCodeCatalogue, useCodeFee, usePhoneList } from './api/codes';
import { forgetCodeIntent, peekCodeIntent } from './intent';

/** The sentinel option standing for a fresh number (spec 001 §4). */
const NEW = 'new';

/**
 * Getting a number for an app (spec 001 §2: the Chinese page's 'Get new number' tab and the
 * new-code page's step 1): service, country (and on jiema the number type), a number or a fresh one,
 * the terms; the page locks it and shows step 2.
 */
export function GetNumber({
  layout,
  start: startLock,
  running,
  locking,
}: {
  layout: 'jiema' | 'newCode';
  start: (p: {
    app: string;
    code: string;
    number?: string | undefined;
    numberType?: 1 | 2;
  }) => Promise<boolean>;
  running: boolean;
  locking: boolean;
}) {
  const { t } = useTranslation();
  const catalogue = useCodeCatalogue();
  const showAlert = useUi((s) => s.showAlert);
  const [search, setSearch] = useState('');
  // the public code page's app and country (after the login it asked for), once
  const [intent] = useState(peekCodeIntent);
  useEffect(() => forgetCodeIntent(), []);
  const [app, setApp] = useState<string | null>(intent?.app ?? null);
  const [country, setCountry] = useState<string | null>(intent?.country ?? null);
  const [numberType, setNumberType] = useState<'1' | '2'>('1');
  const [choice, setChoice] = useState<string>(intent?.number ?? NEW);
  const [numberSearch, setNumberSearch] = useState('');
  const [agreed, setAgreed] = useState(false);

  const countries = (catalogue.data?.countrys ?? []).filter((c) => c.show);
  const chosenCountry = country ?? countries[0]?.code ?? null;
  const apps = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (catalogue.data?.appList ?? []).filter(
      (a) => !q || a.name.toLowerCase().includes(q) || a.app.includes(q),
    );
  }, [catalogue.data, search]);
  const appName = catalogue.data?.appList.find((a) => a.app === app)?.name ?? app ?? '';
  const numbers = usePhoneList(app, chosenCountry);
  const fee = useCodeFee(app, chosenCountry);
  const options = useMemo(() => {
    const q = numberSearch.replace(/\D/g, '');
    return (numbers.data?.numbers ?? []).filter((n) => n.canGetNumber && (!q || n.phone.includes(q)));
  }, [numbers.data, numberSearch]);

  // changing app or country reloads the list; the first choice is a fresh number (or the number the
  // public page was asked for, while it is offered)
  useEffect(() => {
    const list = numbers.data?.numbers;
    if (!list) return;
    setChoice((c) => (c !== NEW && list.some((n) => n.phone === c && n.canGetNumber) ? c : NEW));
  }, [app, chosenCountry, numbers.data]);

  const start = async (number?: string) => {
    if (!app || !chosenCountry) return;
    if (!agreed) {
      showAlert(t('codes.agreeFirst'));
      return;
    }
    if (await startLock({ app, code: chosenCountry, number, numberType: Number(numberType) as 1 | 2 }))
      void numbers.refetch();
  };

  if (catalogue.isPending) return <Loading label={t('app.loading')} />;
  if (catalogue.isError) return <LoadFailed onRetry={() => catalogue.refetch()} />;

  const step1 = (
    <div className="codes-step1" aria-disabled={running || undefined}>
      <section aria-labelledby="codes-app-title">
        <h3 id="codes-app-title" className="codes-step-title">
          {layout === 'jiema' ? t('codes.step1Service') : t('codes.chooseApp')}
        </h3>
        <SearchField className="field" value={search} onChange={setSearch} isDisabled={running}>
          <Label className="field-label">{t('codes.searchService')}</Label>
          <Input className="input" />
        </SearchField>
        {apps.length === 0 ? (
          <p className="muted">{t('codes.noService', { q: search })}</p>
        ) : (
          <RadioGroup
            className="app-grid codes-app-grid"
            aria-label={t('codes.service')}
            value={app}
            onChange={setApp}
            isDisabled={running}
          >
            {apps.map((a) => (
              <Radio key={a.app} value={a.app} className="app-tile">
                <span className="app-initial" aria-hidden="true">
                  {a.name.slice(0, 1)}
                </span>
                <span>{a.name}</span>
              </Radio>
            ))}
          </RadioGroup>
        )}
      </section>
      {app && (
        <section aria-labelledby="codes-country-title" className="codes-country">
          <h3 id="codes-country-title" className="codes-step-title">
            {layout === 'jiema' ? t('codes.step2Country') : t('codes.chooseNumber')}
          </h3>
          <div className="codes-row">
            <SelectField
              label={t('codes.country')}
              value={chosenCountry}
              options={countries.map((c) => ({ id: c.code, name: c.name, detail: `+${c.telCode}` }))}
              onChange={setCountry}
              isDisabled={running}
            />
            {layout === 'jiema' && (
              <RadioGroup
                className="field"
                value={numberType}
                onChange={(v) => setNumberType(v as '1' | '2')}
                isDisabled={running}
              >
                <Label className="field-label">{t('codes.numberType')}</Label>
                <div className="codes-radios">
                  <Radio value="1" className="radio">
                    {t('codes.typeKeepable')}
                  </Radio>
                  <Radio value="2" className="radio">
                    {t('codes.typeOnce')}
                  </Radio>
                </div>
              </RadioGroup>
            )}
          </div>
          {fee.data && (
            <p className="codes-fee">{t('codes.feeLine', { fee: money(fee.data.fee), app: appName })}</p>
          )}
          {numbers.isPending ? (
            <Loading label={t('app.loading')} />
          ) : numbers.isError ? (
            <LoadFailed onRetry={() => numbers.refetch()} />
          ) : (
            <>
              {(numbers.data.numbers.length ?? 0) > constants.codeNumberSearchAbove && (
                <SearchField
                  className="field"
                  value={numberSearch}
                  onChange={setNumberSearch}
                  isDisabled={running}
                >
                  <Label className="field-label">{t('codes.searchNumber')}</Label>
                  <Input className="input" />
                </SearchField>
              )}
              {/* the sentinel stands for a fresh number even when none is listed (a supplier that hands
                  out numbers lists none); an empty pool answers 500000, the no-number dialog */}
              <RadioGroup
                className="codes-numbers"
                aria-label={t('codes.numbers')}
                value={choice}
                onChange={setChoice}
                isDisabled={running}
                style={{ maxHeight: constants.codeNumberListHeight }}
              >
                <Radio value={NEW} className="codes-number-option">
                  {t('codes.newNumber')}
                </Radio>
                {options.map((n) => (
                  <Radio key={n.phone} value={n.phone} className="codes-number-option">
                    <span>+{n.phone}</span>
                    {n.tip && <span className="muted small"> {n.tip}</span>}
                  </Radio>
                ))}
              </RadioGroup>
            </>
          )}
          <Checkbox
            className="checkbox codes-agree"
            isSelected={agreed}
            onChange={setAgreed}
            isDisabled={running}
          >
            <span className="checkbox-box" aria-hidden="true" />
            {t('codes.agreement')}
          </Checkbox>
          <Button
            className="button primary large"
            isDisabled={running || locking || !numbers.data}
            onPress={() => void start(choice === NEW ? undefined : choice)}
          >
            {running && layout === 'jiema'
              ? t('codes.changeNumber')
              : layout === 'jiema'
                ? t('codes.getNumber')
                : t('codes.next')}
          </Button>
        </section>
      )}
    </div>
  );

  return step1;
}
