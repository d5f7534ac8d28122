import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { Button, Radio, RadioGroup, Label } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import {
  type CryptoCurrency,
  type CryptoNetwork,
  type CryptoPayment,
  type PaymentMethods,
} from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { money } from '../../lib/money';
import { useBalance } from '../../shared/api/account';
import { cryptoFlags, networksOf, orderStatusQuery, submitCrypto } from './api/payments';

/** While an order is pending and its dialog open, its status is also read this often. */
const pendingPollMs = 3000;

/**
 * An order's status, read again whenever the balance moves (the balance socket event: a payment
 * turns the dialog to its finish state at once) and when the window gets the focus back. An outcome
 * that moves no money (the provider says failed or cancelled, the order expired) sends no balance
 * event, so while the order is pending its status is also read every few seconds (decided: as a
 * provider's own client libraries do alongside webhooks); polling stops once the order is settled.
 */
export function useOrderStatus(orderId: string | null) {
  const balance = useBalance();
  const status = useQuery({
    ...orderStatusQuery(orderId),
    refetchOnWindowFocus: true,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'pending' ? false : pendingPollMs),
    staleTime: 0,
  });
  const seen = balance.data?.balance;
  const { refetch } = status;
  useEffect(() => {
    if (orderId) void refetch();
  }, [seen, orderId, refetch]);
  return status.data;
}

/** A QR code of `text` as an image (the qrcode library). */
export function QrImage({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(text, { margin: 1, width: size }).then(
      (d) => live && setSrc(d),
      () => live && setSrc(null),
    );
    return () => {
      live = false;
    };
  }, [text, size]);
  return src ? (
    <img className="pay-qr" src={src} width={size} height={size} alt={label} />
  ) : (
    <span className="pay-qr placeholder" style={{ width: size, height: size }} />
  );
}

/** The amount summary of the panel and of every payment dialog's header (spec 001 §2); null: none yet. */
export function Summary({ amount, gift }: { amount: number | null; gift: number }) {
  const { t } = useTranslation();
  const known = amount !== null && Number.isFinite(amount);
  const shown = (v: number) => (known ? money(v) : '—');
  return (
    <dl className="pay-summary">
      <dt>{t('payments.total')}</dt>
      <dd data-testid="pay-total">{shown(amount ?? 0)}</dd>
      <dt>{t('payments.gift')}</dt>
      <dd>{shown(gift)}</dd>
      <dt>{t('payments.credited')}</dt>
      <dd>{shown(Math.round(((amount ?? 0) + gift) * 100) / 100)}</dd>
    </dl>
  );
}

function PaidState({ balance }: { balance: number }) {
  const { t } = useTranslation();
  return (
    <div className="pay-state pay-finish" role="status">
      <p className="pay-success">{t('payments.success')}</p>
      <p>
        {t('payments.newBalance')} <strong>{money(balance)}</strong>
      </p>
    </div>
  );
}

/** WeChat Pay (spec 001 §4, 540 wide): LOADING, then the QR code once the payment URL arrives; OK closes. */
export function WeChatDialog({
  order,
  amount,
  gift,
  onClose,
}: {
  order: { orderId: string; paymentUrl: string } | 'loading' | null;
  /** the header's amount summary, shared by every payment dialog (spec 001 §2) */
  amount: number;
  gift: number;
  onClose: (pendingOrder: string | null) => void;
}) {
  const { t } = useTranslation();
  const ready = order && order !== 'loading' ? order : null;
  const status = useOrderStatus(ready?.orderId ?? null);
  const paid = status?.status === 'paid';
  const close = () => onClose(paid || !ready ? null : ready.orderId);
  return (
    <Dialog
      isOpen={!!order}
      onClose={close}
      width={540}
      title={t('payments.wechatTitle')}
      dismissable={false}
    >
      <Summary amount={amount} gift={gift} />
      {!ready && (
        <p className="pay-state" role="status">
          <Spinner size={16} /> {t('payments.loading')}
        </p>
      )}
      {ready && !paid && (
        <div className="wechat-qr">
          <QrImage text={ready.paymentUrl} label={t('payments.wechatQr')} />
          <p>{t('payments.wechatScan')}</p>
          <a className="link-button" href={ready.paymentUrl} target="_blank" rel="noreferrer">
            {t('payments.wechatOpenHere')}
          </a>
        </div>
      )}
      {paid && <PaidState balance={status.balance} />}
      <div className="dialog-footer pay-footer">
        <Button className="button primary" onPress={close}>
          {t('payments.ok')}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * Crypto (spec 001 §4, 600 wide) in two steps: choose currency and network (spec 001 §5 rules), then
 * the amount, address, rate, time and QR. On error the amount and address are cleared and the shared
 * retry control runs the step again.
 */
export function CryptoDialog({
  open,
  flags,
  amount,
  gift,
  onClose,
}: {
  open: boolean;
  flags: PaymentMethods;
  amount: { preset: number | null; custom: number };
  gift: number;
  onClose: (pendingOrder: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const currencies = (Object.keys(cryptoFlags) as CryptoCurrency[]).filter((c) => flags[cryptoFlags[c]]);
  const [currency, setCurrency] = useState<CryptoCurrency | null>(null);
  const [network, setNetwork] = useState<CryptoNetwork | null>(null);
  const [result, setResult] = useState<CryptoPayment | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = useOrderStatus(result?.orderId ?? null);
  const paid = status?.status === 'paid';
  const networks = currency ? networksOf(currency) : [];
  const ready = !!currency && (networks.length === 0 || !!network);

  useEffect(() => {
    if (!open) {
      setCurrency(null);
      setNetwork(null);
      setResult(null);
      setError(null);
    }
  }, [open]);

  const next = async () => {
    if (!currency || !ready) return;
    setSending(true);
    setError(null);
    setResult(null);
    try {
      setResult(await submitCrypto(amount, currency, networks.length ? network : null));
    } catch (e) {
      setError(isApiError(e) ? e.retmsg : t('errors.generic'));
    } finally {
      setSending(false);
    }
  };
  const close = () => onClose(result && !paid ? result.orderId : null);

  return (
    <Dialog isOpen={open} onClose={close} width={600} title={t('payments.cryptoTitle')} dismissable={false}>
      <Summary amount={amount.preset ?? amount.custom} gift={gift} />
      {!result && (
        <div className={sending ? 'exact-pay sending' : 'exact-pay'} aria-busy={sending}>
          <RadioGroup
            className="method-list"
            value={currency}
            onChange={(v) => (setCurrency(v as CryptoCurrency), setNetwork(null))}
          >
            <Label className="field-label">{t('payments.cryptoCurrency')}</Label>
            <div className="chip-row">
              {currencies.map((c) => (
                <Radio key={c} value={c} className="method-option chip">
                  {c}
                </Radio>
              ))}
            </div>
          </RadioGroup>
          {networks.length > 0 && (
            <RadioGroup
              className="method-list"
              value={network}
              onChange={(v) => setNetwork(v as CryptoNetwork)}
            >
              <Label className="field-label">{t('payments.cryptoNetwork')}</Label>
              <div className="chip-row">
                {networks.map((n) => (
                  <Radio key={n} value={n} className="method-option chip">
                    {n}
                  </Radio>
                ))}
              </div>
            </RadioGroup>
          )}
        </div>
      )}
      {error && (
        <div className="pay-state" role="alert">
          <p className="field-error">{error}</p>
          <Button className="button" onPress={() => void next()}>
            {t('payments.tryAgain')}
          </Button>
        </div>
      )}
      {result && !paid && (
        <div className="crypto-result">
          <QrImage text={result.walletAddress} label={t('payments.cryptoAddressQr')} size={160} />
          <dl className="pay-summary">
            <dt>{t('payments.cryptoSend')}</dt>
            <dd data-testid="crypto-amount">
              {result.rechargeAmount} {result.currency}
            </dd>
            {result.network && (
              <>
                <dt>{t('payments.cryptoNetwork')}</dt>
                <dd>{result.network}</dd>
              </>
            )}
            <dt>{t('payments.cryptoAddress')}</dt>
            <dd className="crypto-address">{result.walletAddress}</dd>
            <dt>{t('payments.cryptoRate')}</dt>
            <dd>
              1 {result.currency} = {result.cryptoToLegalRate}
            </dd>
            <dt>{t('payments.cryptoRateTime')}</dt>
            <dd>
              {new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en', {
                dateStyle: 'medium',
                timeStyle: 'short',
              }).format(new Date(result.queryRateTime))}
            </dd>
          </dl>
          <p className="muted">{t('payments.cryptoExact')}</p>
          {result.paymentUrl && (
            <a className="link-button" href={result.paymentUrl} target="_blank" rel="noreferrer">
              {t('payments.cryptoWallet')}
            </a>
          )}
        </div>
      )}
      {paid && <PaidState balance={status.balance} />}
      <div className="dialog-footer pay-footer">
        {!result && (
          <Button className="button primary" isDisabled={!ready || sending} onPress={() => void next()}>
            {sending && <Spinner size={14} />} {t('payments.next')}
          </Button>
        )}
        {result && (
          <Button className="button primary" onPress={close}>
            {paid ? t('payments.finish') : t('payments.close')}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
