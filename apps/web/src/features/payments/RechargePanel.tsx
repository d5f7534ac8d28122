import { useEffect, useRef, useState } from 'react';
import { Button, Input, Label, NumberField, Radio, RadioGroup, FieldError } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { LoadFailed, Loading, Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { brand } from '../../lib/config';
import { money } from '../../lib/money';
import { useBalance } from '../../shared/api/account';
import { openVerify } from '../../shared/dialogs/verify';
import {
  cancelOrder,
  cryptoFlags,
  giftOf,
  listedMethods,
  submitPayment,
  usePaymentMethods,
  type Choice,
  type ListedMethod,
} from './api/payments';
import { CryptoDialog, Summary, useOrderStatus, WeChatDialog } from './MethodDialogs';
import { goBackAfterPayment, returnUrlOf, usePayBack } from '../../shared/recharge';
import './payments.css';

type Phase =
  { kind: 'idle' } | { kind: 'sending' } | { kind: 'waiting'; orderId: string; paymentUrl: string | null };

/**
 * Recharge (spec 001 §2 Payment screen, §4 Payment amount, §9 Payment amounts): the brand's amounts
 * with their bonuses (or a custom amount with its 15 % gift), the methods the brand offers, and Pay.
 * Pay opens the provider's page in a new window and the exact-pay dialog, which turns to its finish
 * state when the payment is confirmed (the balance socket event refreshes the order's status).
 */
export default function RechargePanel() {
  const { t } = useTranslation();
  const methods = usePaymentMethods();
  const balance = useBalance();
  const presets = brand.topUp.presets;
  const [preset, setPreset] = useState<number | null>(
    presets[brand.topUp.defaultPresetIndex]?.amount ?? presets[0]!.amount,
  );
  const [custom, setCustom] = useState<number>(brand.topUp.custom.default);
  const [method, setMethod] = useState<ListedMethod | null>(null);
  const [wechat, setWechat] = useState<{ orderId: string; paymentUrl: string } | 'loading' | null>(null);
  const [cryptoOpen, setCryptoOpen] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const lastChoice = useRef<Choice | null>(null);
  // started from the numbers tab: the provider and the closed dialog return there (spec 001 §2)
  const back = usePayBack((s) => s.back);

  const offered = listedMethods.filter((m) =>
    m === 'crypto' ? Object.values(cryptoFlags).some((f) => methods.data?.[f]) : methods.data?.[m],
  );
  useEffect(() => {
    if (!method && offered.length) setMethod(offered[0]!);
  }, [method, offered]);

  if (methods.isPending || balance.isPending) return <Loading label={t('app.loading')} />;
  if (methods.isError || balance.isError)
    return <LoadFailed onRetry={() => Promise.all([methods.refetch(), balance.refetch()])} />;

  const { min, max } = brand.topUp.custom;
  const customInvalid = preset === null && (!Number.isFinite(custom) || custom < min || custom > max);
  const amount = preset ?? custom;
  const presetBonus = preset === null ? null : (presets.find((p) => p.amount === preset)?.bonus ?? 0);
  const gift = giftOf(method, amount, presetBonus);
  const needsPhone = !!method && method !== 'crypto' && !!methods.data.needSetPhone[method];

  const pay = async (choice: Choice) => {
    lastChoice.current = choice;
    setError(null);
    if (choice.method === 'wechatpay') {
      // WeChat Pay shows a QR code instead of a window
      setWechat('loading');
      try {
        const r = await submitPayment(choice, returnUrlOf(back));
        setWechat({ orderId: r.orderId, paymentUrl: r.paymentUrl! });
      } catch (e) {
        setWechat(null);
        setError(isApiError(e) ? e.retmsg : t('errors.generic'));
      }
      return;
    }
    // the window opens in the click itself (a later window.open is a blocked popup); PayPal's approval
    // page opens there too
    const win = window.open('', '_blank');
    setPhase({ kind: 'sending' });
    try {
      const r = await submitPayment(choice, returnUrlOf(back));
      if (win && r.paymentUrl) win.location.href = r.paymentUrl;
      else if (r.paymentUrl) window.open(r.paymentUrl, '_blank');
      setPhase({ kind: 'waiting', orderId: r.orderId, paymentUrl: r.paymentUrl });
    } catch (e) {
      win?.close();
      setPhase({ kind: 'idle' });
      setError(isApiError(e) ? e.retmsg : t('errors.generic'));
    }
  };

  /** A payment dialog closed: its pending order is cancelled; a pay-back screen gets the user back. */
  const dialogClosed = (orderId: string | null) => {
    if (orderId) void cancelOrder(orderId).catch(() => undefined);
    goBackAfterPayment();
  };

  const onPay = () => {
    if (!method || customInvalid) return;
    if (needsPhone) {
      openVerify('charge', { onDone: () => void methods.refetch() });
      return;
    }
    if (method === 'crypto') {
      setCryptoOpen(true);
      return;
    }
    void pay({ method, preset, custom });
  };

  return (
    <section className="panel recharge-panel" aria-labelledby="recharge-title">
      <h2 id="recharge-title">{t('payments.title')}</h2>
      {back && (
        <Button className="link-button recharge-back" onPress={goBackAfterPayment}>
          ← {t('payments.backToNumbers')}
        </Button>
      )}
      <p className="recharge-balance">
        {t('payments.balance')} <strong data-testid="recharge-balance">{money(balance.data.balance)}</strong>
      </p>

      <RadioGroup
        className="amount-grid"
        aria-label={t('payments.amount')}
        value={preset === null ? 'custom' : String(preset)}
        onChange={(v) => setPreset(v === 'custom' ? null : Number(v))}
      >
        <Label className="field-label">{t('payments.amount')}</Label>
        <div className="amount-options">
          {presets.map((p) => (
            <Radio key={p.amount} value={String(p.amount)} className="amount-option">
              <span className="amount-value">{money(p.amount, 0)}</span>
              {p.bonus > 0 && (
                <span className="amount-bonus">{t('payments.bonus', { amount: money(p.bonus, 0) })}</span>
              )}
            </Radio>
          ))}
          <Radio value="custom" className="amount-option">
            <span className="amount-value">{t('payments.custom')}</span>
            <span className="amount-bonus">{t('payments.customRange', { min, max })}</span>
          </Radio>
        </div>
      </RadioGroup>

      {preset === null && (
        <NumberField
          className="field custom-amount"
          value={custom}
          onChange={setCustom}
          minValue={0}
          formatOptions={{ maximumFractionDigits: 2 }}
          isInvalid={customInvalid}
          isDisabled={method === 'paypal'}
        >
          <Label className="field-label">{t('payments.customAmount', { min, max })}</Label>
          <Input className="input" />
          <FieldError className="field-error">{t('payments.customOutOfRange', { min, max })}</FieldError>
          {method === 'paypal' && <p className="field-error">{t('payments.noCustomWithPaypal')}</p>}
        </NumberField>
      )}

      <RadioGroup className="method-list" value={method} onChange={(v) => setMethod(v as ListedMethod)}>
        <Label className="field-label">{t('payments.method')}</Label>
        {offered.length === 0 && <p className="muted">{t('payments.noMethods')}</p>}
        {offered.map((m) => (
          <Radio key={m} value={m} className="method-option">
            {t(`payments.methods.${m}`)}
            {m !== 'crypto' && methods.data.needSetPhone[m] && (
              <span className="muted method-note"> · {t('payments.needsPhone')}</span>
            )}
          </Radio>
        ))}
      </RadioGroup>

      {/* a cleared or unfinished custom amount has no total yet: the field says the rule (issue 20) */}
      <Summary amount={customInvalid ? null : amount} gift={gift} />
      <Button
        className="button primary pay-button"
        isDisabled={
          !method || customInvalid || phase.kind === 'sending' || (preset === null && method === 'paypal')
        }
        onPress={onPay}
      >
        {t('payments.pay')}
      </Button>

      <ExactPayDialog
        phase={phase}
        amount={amount}
        gift={gift}
        onRetry={() => lastChoice.current && void pay(lastChoice.current)}
        onClose={(orderId) => {
          setPhase({ kind: 'idle' });
          dialogClosed(orderId);
        }}
      />
      <WeChatDialog
        order={wechat}
        amount={amount}
        gift={gift}
        onClose={(orderId) => {
          setWechat(null);
          dialogClosed(orderId);
        }}
      />
      <CryptoDialog
        open={cryptoOpen}
        flags={methods.data}
        amount={{ preset, custom }}
        gift={gift}
        onClose={(orderId) => {
          setCryptoOpen(false);
          dialogClosed(orderId);
        }}
      />
      <Dialog
        isOpen={!!error}
        onClose={() => setError(null)}
        role="alertdialog"
        width={400}
        title={t('payments.errorTitle')}
        footer={
          <>
            <Button className="button" onPress={() => setError(null)}>
              {t('payments.close')}
            </Button>
            <Button
              className="button primary"
              autoFocus
              onPress={() => {
                setError(null);
                if (lastChoice.current) void pay(lastChoice.current);
              }}
            >
              {t('payments.tryAgain')}
            </Button>
          </>
        }
      >
        <p className="alert-message">{error}</p>
      </Dialog>
    </section>
  );
}

/** The exact-pay dialog (640 wide): sending (0.45 opacity), waiting for the provider, then finish. */
function ExactPayDialog({
  phase,
  amount,
  gift,
  onRetry,
  onClose,
}: {
  phase: Phase;
  amount: number;
  gift: number;
  /** a failed or cancelled payment: the same choice again (a new order, a new window) */
  onRetry: () => void;
  onClose: (pendingOrder: string | null) => void;
}) {
  const { t } = useTranslation();
  const orderId = phase.kind === 'waiting' ? phase.orderId : null;
  // the balance socket event is the signal: the order's status is read again when the balance moves
  const status = { data: useOrderStatus(orderId) };
  const paid = status.data?.status === 'paid';
  const closed = status.data && status.data.status !== 'pending' && !paid;
  const close = () => onClose(paid ? null : orderId);

  return (
    <Dialog
      isOpen={phase.kind !== 'idle'}
      onClose={close}
      width={640}
      title={t('payments.dialogTitle')}
      dismissable={false}
    >
      <div
        className={`exact-pay ${phase.kind === 'sending' ? 'sending' : ''}`}
        aria-busy={phase.kind === 'sending'}
      >
        <Summary amount={amount} gift={gift} />
        {phase.kind === 'sending' && (
          <p className="pay-state" role="status">
            <Spinner size={16} /> {t('payments.sending')}
          </p>
        )}
        {phase.kind === 'waiting' && !paid && !closed && (
          <div className="pay-state" role="status">
            <p>{t('payments.waiting')}</p>
            {phase.paymentUrl && (
              <a className="link-button" href={phase.paymentUrl} target="_blank" rel="noreferrer">
                {t('payments.openAgain')}
              </a>
            )}
          </div>
        )}
        {closed && (
          <p className="pay-state field-error" role="alert">
            {/* cancelled on the provider's page (its cancel URL closed the order), or failed / expired */}
            {status.data?.status === 'cancelled' ? t('payments.cancelled') : t('payments.notCompleted')}
          </p>
        )}
        {paid && (
          <div className="pay-state pay-finish" role="status">
            <p className="pay-success">{t('payments.success')}</p>
            <p>
              {t('payments.newBalance')} <strong>{money(status.data!.balance)}</strong>
            </p>
          </div>
        )}
      </div>
      <div className="dialog-footer pay-footer">
        {paid ? (
          <Button className="button primary" autoFocus onPress={close}>
            {t('payments.finish')}
          </Button>
        ) : (
          <>
            <Button className="button" onPress={close}>
              {t('payments.close')}
            </Button>
            {closed && (
              <Button className="button primary" autoFocus onPress={onRetry}>
                {t('payments.tryAgain')}
              </Button>
            )}
          </>
        )}
      </div>
    </Dialog>
  );
}
