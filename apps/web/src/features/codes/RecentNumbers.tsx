import { useEffect, useState } from 'react';
import {
  Button,
  Checkbox,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Radio,
  RadioGroup,
  Select,
  SelectValue,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type SmsItem, type VerificationNumber } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Loading, LoadFailed } from '../../components/Spinner';
import { money } from '../../lib/money';
import { useUi } from '../../stores/ui';
import { lastMonths, refreshCodes, useAccountApps, useAccountNumbers } from './api/codes';
import { releaseCodeNumber } from './api/keep';
import { fetchCodeSmsPage } from './api/receive';
import { SubscribeButton } from './Subscribe';

/** How far 'see more' steps back (the verification history's six months). */
const monthsBack = 6;

/**
 * A number's code SMS, newest first: the current UTC month 20 at a time; 'see more' continues the
 * month, then steps back one month and loads the remainder up to 20 (spec 001 §4).
 */
function SmsHistory({ n }: { n: VerificationNumber }) {
  const { t } = useTranslation();
  const months = lastMonths(monthsBack);
  const [items, setItems] = useState<SmsItem[]>([]);
  const [cursor, setCursor] = useState<{ month: number; nextPage: string | null }>({
    month: 0,
    nextPage: null,
  });
  const [state, setState] = useState<'loading' | 'idle' | 'error' | 'end'>('loading');

  const load = async (from: { month: number; nextPage: string | null }, got: SmsItem[]) => {
    setState('loading');
    try {
      let { month, nextPage } = from;
      let list = got;
      const want = got.length + constants.pageSize.codeSms;
      while (list.length < want && month < months.length) {
        const res = await fetchCodeSmsPage({
          app: n.app,
          number: n.phone,
          ym: months[month]!,
          pageSize: want - list.length,
          ...(nextPage ? { nextPage } : {}),
        });
        list = [...list, ...res.smsList];
        if (res.nextPage) nextPage = res.nextPage;
        else {
          month += 1;
          nextPage = null;
        }
        if (list.length >= want) break;
      }
      setItems(list);
      setCursor({ month, nextPage });
      setState(month >= months.length ? 'end' : 'idle');
    } catch {
      setState('error');
    }
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new number starts over
  useEffect(() => void load({ month: 0, nextPage: null }, []), [n.phone, n.app]);

  return (
    <section aria-labelledby="codes-history-title" className="codes-history">
      <h3 id="codes-history-title" className="codes-step-title">
        {t('codes.smsHistory')}
      </h3>
      {items.length === 0 && state === 'loading' ? (
        <Loading label={t('app.loading')} />
      ) : state === 'error' ? (
        <LoadFailed onRetry={() => load(cursor, items)} />
      ) : items.length === 0 ? (
        <p className="muted">{t('codes.noSmsYet')}</p>
      ) : (
        <ul className="codes-sms-list" aria-label={t('codes.smsHistory')}>
          {items.map((s) => (
            <li key={s.smsId} className="codes-sms">
              {s.code && <span className="codes-code small-code">{s.code}</span>}
              <p className="codes-sms-text">{s.text}</p>
              <div className="muted small">
                {new Date(s.date).toLocaleString()} · {t('codes.charged', { fee: money(s.charge) })}
              </div>
            </li>
          ))}
        </ul>
      )}
      {state === 'idle' && items.length > 0 && (
        <Button className="link-button" onPress={() => void load(cursor, items)}>
          {t('codes.seeMore')}
        </Button>
      )}
    </section>
  );
}

/**
 * The Chinese page's 'Recently used numbers' tab (spec 001 §2): a recent service, then one of its
 * numbers; its SMS history with 'see more'; receive a code on it again; subscribe or unsubscribe.
 */
export function RecentNumbers(p: {
  start: (a: { app: string; code: string; number?: string | undefined }) => Promise<boolean>;
  running: boolean;
  locking: boolean;
}) {
  const { t } = useTranslation();
  const apps = useAccountApps();
  const [app, setApp] = useState<string | null>(null);
  const chosenApp = app ?? apps.data?.appList[0]?.app ?? null;
  const numbers = useAccountNumbers(chosenApp);
  const [phone, setPhone] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [unsub, setUnsub] = useState(false);
  const showAlert = useUi((s) => s.showAlert);
  const list = numbers.data?.numbers ?? [];
  const chosen = list.find((n) => n.phone === phone) ?? list[0] ?? null;

  if (apps.isPending) return <Loading label={t('app.loading')} />;
  if (apps.isError) return <LoadFailed onRetry={() => apps.refetch()} />;
  if (!apps.data.appList.length) return <p className="codes-empty muted">{t('codes.noRecent')}</p>;

  const receive = () => {
    if (!chosen) return;
    if (!agreed) {
      showAlert(
        t('codes.agreeOld', { app: chosen.name, number: `+${chosen.phone}`, rate: money(chosen.codeRate) }),
      );
      return;
    }
    void p.start({ app: chosen.app, code: chosen.code, number: chosen.phone });
  };
  const unsubscribe = async () => {
    if (!chosen) return;
    await releaseCodeNumber(chosen.app, chosen.phone);
    setUnsub(false);
    void refreshCodes();
  };

  return (
    <div className="codes-step1">
      <div className="codes-row">
        <Select
          className="field"
          selectedKey={chosenApp}
          onSelectionChange={(k) => setApp(String(k))}
          isDisabled={p.running}
        >
          <Label className="field-label">{t('codes.recentService')}</Label>
          <Button className="input select-button">
            <SelectValue />
            <span aria-hidden="true">▾</span>
          </Button>
          <Popover className="popover">
            <ListBox className="listbox" items={apps.data.appList.map((a) => ({ id: a.app, ...a }))}>
              {(a) => (
                <ListBoxItem className="listbox-item" id={a.id} textValue={a.name}>
                  {a.name}
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </Select>
      </div>
      {numbers.isPending ? (
        <Loading label={t('app.loading')} />
      ) : numbers.isError ? (
        <LoadFailed onRetry={() => numbers.refetch()} />
      ) : (
        <>
          <RadioGroup
            className="codes-numbers"
            aria-label={t('codes.recentNumber')}
            value={chosen?.phone ?? null}
            onChange={setPhone}
            isDisabled={p.running}
            style={{ maxHeight: constants.codeNumberListHeight }}
          >
            {list.map((n) => (
              <Radio key={n.phone} value={n.phone} className="codes-number-option">
                <span>+{n.phone}</span>
                <span className="muted small">
                  {n.subStatus === 1
                    ? t('codes.subscribedUntil', { date: n.nextPaymentDate, rent: money(n.monthRent) })
                    : t('codes.validUntil', { date: n.nextPaymentDate })}
                </span>
              </Radio>
            ))}
          </RadioGroup>
          {chosen && (
            <>
              <Checkbox
                className="checkbox codes-agree"
                isSelected={agreed}
                onChange={setAgreed}
                isDisabled={p.running}
              >
                <span className="checkbox-box" aria-hidden="true" />
                {t('codes.agreement')}
              </Checkbox>
              <div className="codes-actions codes-actions-start">
                <Button className="button primary" isDisabled={p.running || p.locking} onPress={receive}>
                  {t('codes.receiveAgain')}
                </Button>
                {chosen.subStatus === 1 ? (
                  <Button className="button" isDisabled={p.running} onPress={() => setUnsub(true)}>
                    {t('codes.unsubscribe')}
                  </Button>
                ) : (
                  <SubscribeButton
                    className="button"
                    app={chosen.app}
                    number={chosen.phone}
                    rent={chosen.subRent}
                    isDisabled={p.running}
                    onDone={() => void numbers.refetch()}
                  />
                )}
              </div>
              <SmsHistory n={chosen} />
            </>
          )}
        </>
      )}
      <Dialog
        title={t('codes.unsubscribeTitle')}
        isOpen={unsub}
        onClose={() => setUnsub(false)}
        footer={
          <>
            <Button className="button" onPress={() => setUnsub(false)}>
              {t('codes.cancel')}
            </Button>
            <Button className="button danger" onPress={() => void unsubscribe()}>
              {t('codes.unsubscribe')}
            </Button>
          </>
        }
      >
        <p>{t('codes.unsubscribeText', { date: chosen?.nextPaymentDate ?? '' })}</p>
      </Dialog>
    </div>
  );
}
