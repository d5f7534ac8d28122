import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Button,
  Form,
  Input,
  Label,
  NumberField,
  Radio,
  RadioGroup,
  TextField,
  Group,
} from 'react-aria-components';
import { brands } from '@numa/contract/brands';
import * as endpoints from '@numa/contract/cellPlans';
import type { CellLine, CellOrder, CellPlan } from '@numa/contract/cellPlans';
import { formatMoney } from '@numa/contract/money';
import { plansPagePath, type PlansHeaderButton } from '@numa/contract/plansFrame';
import { call, PageError } from './api';
import { onHostMessage, sendToHost } from './bridge';
import { setLang, useT } from './i18n';
import { page } from './params';

type View =
  | { name: 'home' }
  | { name: 'checkout'; planId: number; vt?: number; card?: number; count?: number; lineId?: number }
  | { name: 'orders' }
  | { name: 'order'; orderId: string; fresh?: boolean }
  | { name: 'subscriptions' }
  | { name: 'line'; lineId: number };

type T = ReturnType<typeof useT>['t'];
type HeaderHandlers = Partial<Record<PlansHeaderButton, () => void>>;

const brand = brands[page.platform];
const num = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : undefined);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const minor = (x: number) => Math.round(x * 10_000);

/** The view the page opens with: its query's `view` (a return URL after Recharge), else the plans. */
function initialStack(): View[] {
  const v = page.values;
  const planId = num(v.get('planId'));
  if (page.view === 'checkout' && planId) {
    const lineId = num(v.get('lineId'));
    return [
      { name: 'home' },
      {
        name: 'checkout',
        planId,
        ...(num(v.get('vt')) ? { vt: num(v.get('vt')) } : {}),
        ...(num(v.get('card')) ? { card: num(v.get('card')) } : {}),
        ...(num(v.get('count')) ? { count: num(v.get('count')) } : {}),
        ...(lineId ? { lineId } : {}),
      },
    ];
  }
  if (page.view === 'orders') return [{ name: 'home' }, { name: 'orders' }];
  if (page.view === 'subscriptions') return [{ name: 'home' }, { name: 'subscriptions' }];
  return [{ name: 'home' }];
}

/** A read with loading, error and reload. */
function useLoad<R>(load: () => Promise<R>, key: string) {
  const [state, setState] = useState<{ data?: R; error?: PageError; loading: boolean }>({ loading: true });
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (e: unknown) =>
        live && setState({ error: e instanceof PageError ? e : new PageError(-1, ''), loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names what is loaded
  }, [key, n]);
  return { ...state, reload: useCallback(() => setN((x) => x + 1), []) };
}

export function PlansPage() {
  const { t, lang } = useT();
  const [stack, setStack] = useState<View[]>(initialStack);
  const view = stack[stack.length - 1]!;
  const [title, setTitle] = useState('');
  const handlers = useRef<HeaderHandlers>({});
  const [phoneSeq, setPhoneSeq] = useState(0);

  const go = useCallback((v: View) => setStack((s) => [...s, v]), []);
  const back = useCallback(() => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)), []);
  const replace = useCallback((v: View[]) => setStack(v), []);

  // the host's answers: header buttons, its language, the phone after its verify flow
  useEffect(
    () =>
      onHostMessage((m) => {
        if (m.type === 'language') setLang(m.languagecode === 'zh_cn' ? 'zh' : 'en');
        else if (m.type === 'phone') setPhoneSeq((n) => n + 1);
        else if (m.button === 'back') back();
        else if (m.button === 'subscriptionHistory') go({ name: 'subscriptions' });
        else if (m.button === 'orderHistory') go({ name: 'orders' });
        else handlers.current[m.button]?.();
      }),
    [back, go],
  );
  useEffect(() => sendToHost({ type: 'language' }), []);

  const buttons: PlansHeaderButton[] =
    view.name === 'home'
      ? ['subscriptionHistory', 'orderHistory']
      : view.name === 'subscriptions'
        ? ['orderHistory']
        : view.name === 'orders'
          ? ['subscriptionHistory']
          : view.name === 'line'
            ? ['edit', 'orderDetails']
            : [];
  const shownTitle = title || t(`page.titles.${view.name}`);
  useEffect(() => {
    sendToHost({ type: 'pageChange', title: shownTitle, back: stack.length > 1, buttons });
    document.title = shownTitle;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- buttons follow the view
  }, [shownTitle, stack.length, view.name]);
  useEffect(() => setTitle(''), [view]);

  return (
    <main className="plans-page" aria-labelledby="plans-page-title">
      <h1 id="plans-page-title" className="visually-hidden">
        {shownTitle}
      </h1>
      {view.name === 'home' && <Home t={t} onChoose={(planId) => go({ name: 'checkout', planId })} />}
      {view.name === 'checkout' && (
        <Checkout
          key={`${view.planId}-${view.lineId ?? ''}-${phoneSeq}`}
          t={t}
          lang={lang}
          view={view}
          setTitle={setTitle}
          onOrdered={(o) => replace([{ name: 'home' }, { name: 'order', orderId: o.orderId, fresh: true }])}
        />
      )}
      {view.name === 'orders' && (
        <Orders t={t} lang={lang} onOpen={(orderId) => go({ name: 'order', orderId })} />
      )}
      {view.name === 'order' && (
        <OrderDetails t={t} lang={lang} orderId={view.orderId} fresh={!!view.fresh} />
      )}
      {view.name === 'subscriptions' && (
        <Subscriptions
          t={t}
          onOpen={(lineId) => go({ name: 'line', lineId })}
          onRenew={(l) => go({ name: 'checkout', planId: l.planId, lineId: l.lineId, card: 3 })}
        />
      )}
      {view.name === 'line' && (
        <LineDetails
          t={t}
          lang={lang}
          lineId={view.lineId}
          setTitle={setTitle}
          handlers={handlers}
          onOrder={(orderId) => go({ name: 'order', orderId })}
          onRenew={(l) => go({ name: 'checkout', planId: l.planId, lineId: l.lineId, card: 3 })}
        />
      )}
    </main>
  );
}

function State({
  t,
  error,
  loading,
  onRetry,
}: {
  t: T;
  error?: PageError;
  loading: boolean;
  onRetry: () => void;
}) {
  if (loading)
    return (
      <p className="plans-state" role="status">
        <span className="plans-spinner" aria-hidden="true" /> {t('page.loading')}
      </p>
    );
  if (error?.sessionEnded)
    return (
      <p className="plans-state plans-error" role="alert">
        {t('page.sessionEnded')}
      </p>
    );
  return (
    <div className="plans-state plans-error" role="alert">
      <p>{error?.retmsg || t('page.loadFailed')}</p>
      <Button className="plans-button" onPress={onRetry}>
        {t('page.retry')}
      </Button>
    </div>
  );
}

function features(t: T, p: CellPlan): string[] {
  return [
    p.unlimited ? t('page.dataUnlimited', { gb: p.dataGb }) : t('page.data', { gb: p.dataGb }),
    t('page.hotspot', { gb: p.hotspotGb }),
    t('page.talkText'),
    ...(p.intlCalls ? [t('page.intl')] : []),
  ];
}

function Home({ t, onChoose }: { t: T; onChoose: (planId: number) => void }) {
  const { lang } = useT();
  const cat = useLoad(() => call(endpoints.getCellPlanList, {}), 'catalogue');
  if (!cat.data) return <State t={t} error={cat.error} loading={cat.loading} onRetry={cat.reload} />;
  return (
    <>
      <p className="plans-intro">{t('page.intro')}</p>
      <p className="plans-balance">
        {t('page.balance')}{' '}
        <strong data-testid="plans-balance">{formatMoney(brand, cat.data.balance, lang)}</strong>
      </p>
      <ul className="plans-grid" aria-label={t('page.titles.home')}>
        {cat.data.planList.map((p) => {
          const name = t(`page.names.${p.code}`);
          const month = p.prices[0]!;
          return (
            <li key={p.planId} className="plan-card" aria-labelledby={`plan-${p.planId}`}>
              <h2 id={`plan-${p.planId}`}>{name}</h2>
              <p className="plan-price">
                {t('page.from', { price: formatMoney(brand, month.price, lang, 2), days: month.days })}
              </p>
              <ul className="plan-features">
                {features(t, p).map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              <Button
                className="plans-button primary"
                aria-label={t('page.choose', { name })}
                onPress={() => onChoose(p.planId)}
              >
                {t('page.chooseShort')}
              </Button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Checkout({
  t,
  lang,
  view,
  setTitle,
  onOrdered,
}: {
  t: T;
  lang: 'en' | 'zh';
  view: Extract<View, { name: 'checkout' }>;
  setTitle: (s: string) => void;
  onOrdered: (o: CellOrder) => void;
}) {
  const cat = useLoad(() => call(endpoints.getCellPlanList, {}), 'catalogue');
  const lines = useLoad(
    () =>
      view.lineId ? call(endpoints.getCellSubscriptionList, {}) : Promise.resolve({ list: [] as CellLine[] }),
    `lines-${view.lineId ?? 0}`,
  );
  const renewing = view.lineId ? lines.data?.list.find((l) => l.lineId === view.lineId) : undefined;
  const plan = cat.data?.planList.find((p) => p.planId === view.planId);
  const [vt, setVt] = useState(String(view.vt ?? 1));
  const [card, setCard] = useState(String(view.lineId ? 3 : view.card === 2 ? 2 : 1));
  const [count, setCount] = useState(view.count ?? 1);
  const [email, setEmail] = useState(page.email ?? '');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const requestId = useRef(crypto.randomUUID());
  const name = plan ? t(`page.names.${plan.code}`) : '';
  useEffect(() => {
    if (name) setTitle(name);
  }, [name, setTitle]);
  useEffect(() => {
    if (cat.data?.email && !email) setEmail(cat.data.email);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the account's e-mail arrives
  }, [cat.data?.email]);

  const price = plan?.prices.find((p) => String(p.validityType) === vt);
  const total = useMemo(() => {
    if (!price || !cat.data) return 0;
    const kit = card === '2' ? minor(cat.data.simKitFee) : 0;
    return (minor(price.price) * (Number.isFinite(count) ? count : 1) + kit) / 10_000;
  }, [price, cat.data, card, count]);

  if (!cat.data || (view.lineId && !lines.data))
    return (
      <State
        t={t}
        error={cat.error ?? lines.error}
        loading={cat.loading || lines.loading}
        onRetry={() => (cat.reload(), lines.reload())}
      />
    );
  if (!plan || (view.lineId && !renewing))
    return (
      <p className="plans-state plans-error" role="alert">
        {t('page.noPlan')}
      </p>
    );
  const money = (x: number) => formatMoney(brand, x, lang);
  const short = minor(total) > minor(cat.data.balance);
  const countOk = Number.isInteger(count) && count >= 1 && count <= 12;
  const returnUrl = () => {
    const q = new URLSearchParams({
      view: 'checkout',
      planId: String(plan.planId),
      vt,
      card,
      count: String(count),
    });
    if (view.lineId) q.set('lineId', String(view.lineId));
    return `${plansPagePath}?${q}`;
  };

  const submit = async () => {
    setSending(true);
    setError(null);
    try {
      const r = await call(endpoints.orderCellPlan, {
        planId: plan.planId,
        cardType: Number(card) as 1 | 2 | 3,
        validityType: Number(vt) as 1 | 2 | 3 | 4,
        planCount: count,
        requestId: requestId.current,
        ...(view.lineId ? { lineId: view.lineId } : { label: `${name} · ${t(`page.cardTypes.${card}`)}` }),
        ...(email.trim() ? { email: email.trim() } : {}),
      });
      requestId.current = crypto.randomUUID();
      onOrdered(r.order);
    } catch (e) {
      const err = e instanceof PageError ? e : new PageError(-1, '');
      if (err.retcode === 100025) sendToHost({ type: 'managePhone' });
      if (err.retcode === 400001) cat.reload();
      setError(err.retmsg || t('page.orderFailed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Form
      className="plans-checkout"
      onSubmit={(e) => {
        e.preventDefault();
        if (!short && countOk && cat.data?.phone) void submit();
      }}
    >
      <section className="plan-card selected" aria-labelledby="checkout-plan">
        <h2 id="checkout-plan">{name}</h2>
        {renewing && (
          <p className="muted">
            {t('page.renewing', { label: renewing.label, date: day(renewing.endDate) })}
          </p>
        )}
        <ul className="plan-features">
          {features(t, plan).map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      </section>

      <RadioGroup className="plans-field" value={vt} onChange={setVt}>
        <Label className="plans-label">{t('page.validity')}</Label>
        <div className="plans-options">
          {plan.prices.map((p) => (
            <Radio key={p.validityType} value={String(p.validityType)} className="plans-option">
              <span className="option-main">{t('page.days', { days: p.days })}</span>
              <span className="option-sub">{money(p.price)}</span>
            </Radio>
          ))}
        </div>
      </RadioGroup>

      {!view.lineId && (
        <RadioGroup className="plans-field" value={card} onChange={setCard}>
          <Label className="plans-label">{t('page.cardType')}</Label>
          <div className="plans-options">
            {['1', '2'].map((c) => (
              <Radio key={c} value={c} className="plans-option">
                <span className="option-main">{t(`page.cardTypes.${c}`)}</span>
                <span className="option-sub">
                  {t(`page.cardHints.${c}`, { fee: money(cat.data!.simKitFee) })}
                </span>
              </Radio>
            ))}
          </div>
        </RadioGroup>
      )}

      <NumberField
        className="plans-field plans-count"
        value={count}
        onChange={setCount}
        minValue={1}
        maxValue={12}
        isInvalid={!countOk}
      >
        <Label className="plans-label">{t('page.planCount')}</Label>
        <Group className="plans-stepper">
          <Button slot="decrement" className="plans-button">
            −
          </Button>
          <Input className="plans-input" />
          <Button slot="increment" className="plans-button">
            +
          </Button>
        </Group>
      </NumberField>

      <div className="plans-field">
        <span className="plans-label" id="contact-phone">
          {t('page.contactPhone')}
        </span>
        {cat.data.phone ? (
          <p aria-labelledby="contact-phone">
            +{cat.data.phone}{' '}
            <Button className="plans-link" onPress={() => sendToHost({ type: 'managePhone' })}>
              {t('page.changePhone')}
            </Button>
          </p>
        ) : (
          <div className="plans-notice" role="status">
            <p>{t('page.noPhone')}</p>
            <Button className="plans-button" onPress={() => sendToHost({ type: 'managePhone' })}>
              {t('page.verifyPhone')}
            </Button>
          </div>
        )}
      </div>

      <TextField className="plans-field" type="email" value={email} onChange={setEmail}>
        <Label className="plans-label">{t('page.email')}</Label>
        <Input className="plans-input" />
      </TextField>

      <dl className="plans-summary">
        <dt>{t('page.balance')}</dt>
        <dd>{money(cat.data.balance)}</dd>
        <dt>{t('page.total')}</dt>
        <dd data-testid="plans-total">{money(total)}</dd>
      </dl>

      {short && (
        <div className="plans-notice" role="status">
          <p>{t('page.short', { amount: money((minor(total) - minor(cat.data.balance)) / 10_000) })}</p>
          <Button
            className="plans-button"
            onPress={() => sendToHost({ type: 'recharge', returnUrl: returnUrl() })}
          >
            {t('page.recharge')}
          </Button>
        </div>
      )}
      {error && (
        <p className="plans-error" role="alert">
          {error}
        </p>
      )}
      <Button
        type="submit"
        className="plans-button primary block"
        isDisabled={short || !countOk || !cat.data.phone || sending}
      >
        {sending ? t('page.ordering') : t('page.order', { amount: money(total) })}
      </Button>
    </Form>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function OrderFields({ t, lang, o }: { t: T; lang: 'en' | 'zh'; o: CellOrder }) {
  return (
    <dl className="plans-details">
      <Row label={t('page.orderId')}>{o.orderId}</Row>
      <Row label={t('page.date')}>{day(o.date)}</Row>
      <Row label={t('page.plan')}>
        {t(`page.names.${o.code}`)} · {t('page.days', { days: o.days })}
      </Row>
      <Row label={t('page.cardType')}>{t(`page.cardTypes.${o.cardType}`)}</Row>
      <Row label={t('page.line')}>{o.lineLabel}</Row>
      <Row label={t('page.period')}>
        {day(o.periodStart)} – {day(o.periodEnd)}
      </Row>
      <Row label={t('page.contactPhone')}>+{o.contactPhone}</Row>
      {o.contactEmail && <Row label={t('page.emailShort')}>{o.contactEmail}</Row>}
      <Row label={t('page.amount')}>{formatMoney(brand, -o.amount, lang)}</Row>
    </dl>
  );
}

function OrderDetails({
  t,
  lang,
  orderId,
  fresh,
}: {
  t: T;
  lang: 'en' | 'zh';
  orderId: string;
  fresh: boolean;
}) {
  const o = useLoad(() => call(endpoints.getCellOrder, { orderId }), orderId);
  if (!o.data) return <State t={t} error={o.error} loading={o.loading} onRetry={o.reload} />;
  return (
    <section className="plans-panel">
      {fresh && (
        <p className="plans-success" role="status">
          {t('page.ordered')}
        </p>
      )}
      <OrderFields t={t} lang={lang} o={o.data} />
    </section>
  );
}

function Orders({ t, lang, onOpen }: { t: T; lang: 'en' | 'zh'; onOpen: (orderId: string) => void }) {
  const list = useLoad(() => call(endpoints.getCellOrderList, { pageNo: 1, pageSize: 200 }), 'orders');
  if (!list.data) return <State t={t} error={list.error} loading={list.loading} onRetry={list.reload} />;
  if (!list.data.list.length) return <p className="plans-state">{t('page.noOrders')}</p>;
  return (
    <ul className="plans-list" aria-label={t('page.titles.orders')}>
      {list.data.list.map((o) => (
        <li key={o.orderId}>
          <Button
            className="plans-row"
            aria-label={t('page.viewOrder', { orderId: o.orderId, name: t(`page.names.${o.code}`) })}
            onPress={() => onOpen(o.orderId)}
          >
            <span className="row-main">
              {t(`page.names.${o.code}`)} · {t(`page.cardTypes.${o.cardType}`)}
            </span>
            <span className="row-sub">
              {day(o.date)} · {o.orderId}
            </span>
            <span className="row-amount">{formatMoney(brand, -o.amount, lang)}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

function Subscriptions({
  t,
  onOpen,
  onRenew,
}: {
  t: T;
  onOpen: (id: number) => void;
  onRenew: (l: CellLine) => void;
}) {
  const list = useLoad(() => call(endpoints.getCellSubscriptionList, {}), 'lines');
  if (!list.data) return <State t={t} error={list.error} loading={list.loading} onRetry={list.reload} />;
  if (!list.data.list.length) return <p className="plans-state">{t('page.noSubscriptions')}</p>;
  return (
    <ul className="plans-list" aria-label={t('page.titles.subscriptions')}>
      {list.data.list.map((l) => (
        <li key={l.lineId} className="plans-line">
          <div className="row-main">
            {l.label} <span className={`plans-badge ${l.status}`}>{t(`page.statuses.${l.status}`)}</span>
          </div>
          <div className="row-sub">
            {t(`page.names.${l.code}`)} · {t('page.until', { date: day(l.endDate) })}
          </div>
          <div className="row-actions">
            <Button
              className="plans-link"
              aria-label={t('page.details', { label: l.label })}
              onPress={() => onOpen(l.lineId)}
            >
              {t('page.detailsShort')}
            </Button>
            <Button
              className="plans-link"
              aria-label={t('page.renew', { label: l.label })}
              onPress={() => onRenew(l)}
            >
              {t('page.renewShort')}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function LineDetails({
  t,
  lang,
  lineId,
  setTitle,
  handlers,
  onOrder,
  onRenew,
}: {
  t: T;
  lang: 'en' | 'zh';
  lineId: number;
  setTitle: (s: string) => void;
  handlers: React.RefObject<HeaderHandlers>;
  onOrder: (orderId: string) => void;
  onRenew: (l: CellLine) => void;
}) {
  const lines = useLoad(() => call(endpoints.getCellSubscriptionList, {}), `line-${lineId}`);
  const orders = useLoad(
    () => call(endpoints.getCellOrderList, { pageNo: 1, pageSize: 200 }),
    `line-orders-${lineId}`,
  );
  const [line, setLine] = useState<CellLine | null>(null);
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const l = lines.data?.list.find((x) => x.lineId === lineId) ?? null;
    setLine(l);
  }, [lines.data, lineId]);
  useEffect(() => {
    if (line) setTitle(line.label);
  }, [line, setTitle]);
  const mine = orders.data?.list.filter((o) => o.lineId === lineId) ?? [];
  useEffect(() => {
    handlers.current = {
      edit: () => {
        if (!line) return;
        setLabel(line.label);
        setEditing(true);
      },
      orderDetails: () => mine[0] && onOrder(mine[0].orderId),
    };
    return () => {
      handlers.current = {};
    };
  });

  if (!lines.data || !orders.data)
    return (
      <State
        t={t}
        error={lines.error ?? orders.error}
        loading={lines.loading || orders.loading}
        onRetry={() => (lines.reload(), orders.reload())}
      />
    );
  if (!line)
    return (
      <p className="plans-state plans-error" role="alert">
        {t('page.noLine')}
      </p>
    );
  const save = async () => {
    setError(null);
    try {
      setLine(await call(endpoints.updateCellLine, { lineId, label }));
      setEditing(false);
    } catch (e) {
      setError(e instanceof PageError && e.retmsg ? e.retmsg : t('page.saveFailed'));
    }
  };
  return (
    <section className="plans-panel">
      {editing ? (
        <Form
          className="plans-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <TextField
            className="plans-field"
            value={label}
            onChange={setLabel}
            maxLength={40}
            isRequired
            autoFocus
          >
            <Label className="plans-label">{t('page.label')}</Label>
            <Input className="plans-input" />
          </TextField>
          {error && (
            <p className="plans-error" role="alert">
              {error}
            </p>
          )}
          <div className="row-actions">
            <Button className="plans-button" onPress={() => setEditing(false)}>
              {t('page.cancel')}
            </Button>
            <Button type="submit" className="plans-button primary" isDisabled={!label.trim()}>
              {t('page.save')}
            </Button>
          </div>
        </Form>
      ) : null}
      <dl className="plans-details">
        <Row label={t('page.label')}>{line.label}</Row>
        <Row label={t('page.status')}>
          <span className={`plans-badge ${line.status}`}>{t(`page.statuses.${line.status}`)}</span>
        </Row>
        <Row label={t('page.plan')}>{t(`page.names.${line.code}`)}</Row>
        <Row label={t('page.cardType')}>{t(`page.cardTypes.${line.cardType}`)}</Row>
        <Row label={t('page.period')}>
          {day(line.startDate)} – {day(line.endDate)}
        </Row>
      </dl>
      <Button className="plans-button primary" onPress={() => onRenew(line)}>
        {t('page.renewShort')}
      </Button>
      <h2 className="plans-subtitle">{t('page.lineOrders')}</h2>
      <ul className="plans-list">
        {mine.map((o) => (
          <li key={o.orderId}>
            <Button className="plans-row" onPress={() => onOrder(o.orderId)}>
              <span className="row-main">{o.orderId}</span>
              <span className="row-sub">
                {day(o.date)} · {t('page.days', { days: o.days })}
              </span>
              <span className="row-amount">{formatMoney(brand, -o.amount, lang)}</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
