import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { SubscribeButton } from './Subscribe';
import { Button, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { SendForm } from './SendForm';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { money } from '../../lib/money';
import { copyText } from '../../lib/clipboard';
import type { Receiving, TipState } from './useReceive';

const mmss = (polls: number) => {
  const s = (polls * constants.codes.pollIntervalMs) / 1000;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Step 2 of the receive flow (spec 001 §2): the locked number with a copy button, the time left, the
 * tip banner (hint, copied, waiting, received, copied), the received SMS with the code highlighted
 * and a copy button, 'try another number' (until an SMS came) and Done.
 */
export function ReceivePanel(p: {
  r: Receiving;
  appName: string;
  tip: TipState;
  setTip: (t: TipState) => void;
  onTryAnother: () => void;
  onDone: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const { lock, sms, counter, ended } = p.r;
  const hasSms = sms.length > 0;
  const [leave, setLeave] = useState(false);
  const [subscribed, setSubscribed] = useState(false);
  const [sent, setSent] = useState(false);
  const [subConfirm, setSubConfirm] = useState(false);
  const [mode, setMode] = useState<'receive' | 'send'>('receive');
  // spec 001 §4: subscribe once the number proved itself (an SMS came, or a send succeeded), if it may be kept
  const subscribable = lock.canSub === 1 && lock.subStatus === 0 && (hasSms || sent) && !subscribed;
  const ref = useRef<HTMLElement>(null);
  // a new lock brings step 2 into view
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [lock.phone, lock.expireTime]);
  const tipText: Record<TipState, string> = {
    hint: t('codes.tipHint', { app: p.appName }),
    numberCopied: t('codes.tipNumberCopied', { app: p.appName }),
    waiting: t('codes.tipWaiting'),
    received: t('codes.tipReceived'),
    codeCopied: t('codes.tipCodeCopied'),
  };
  const receiveView = (
    <>
      <div className={`codes-tip codes-tip-${p.tip}`} role="status" aria-live="polite">
        {tipText[p.tip]}
      </div>
      <div className="codes-timer" aria-live="off">
        {ended ? t('codes.windowEnded') : t('codes.timeLeft', { time: mmss(counter) })}
        <span className="muted small"> · {t('codes.payOnArrival', { fee: money(lock.codeRate) })}</span>
      </div>
      <h4 className="codes-list-title">{t('codes.received')}</h4>
      {sms.length === 0 ? (
        <p className="codes-empty muted">{ended ? t('codes.noneArrived') : t('codes.waitingForSms')}</p>
      ) : (
        <ul className="codes-sms-list" aria-label={t('codes.received')}>
          {sms.map((s) => (
            <li key={s.smsId} className="codes-sms">
              {s.code && (
                <div className="codes-code-row">
                  <span className="codes-code" aria-label={t('codes.codeLabel', { code: s.code })}>
                    {s.code}
                  </span>
                  <Button
                    className="button primary"
                    onPress={async () => {
                      if (await copyText(s.code)) p.setTip('codeCopied');
                    }}
                  >
                    {t('codes.copyCode')}
                  </Button>
                </div>
              )}
              <p className="codes-sms-text">{s.text}</p>
              <div className="muted small">
                {new Date(s.date).toLocaleString()} · {t('codes.charged', { fee: money(s.charge) })}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
  return (
    <section ref={ref} className="codes-receive" aria-labelledby="codes-receive-title">
      <h3 id="codes-receive-title" className="codes-step-title">
        {t('codes.receiveTitle', { app: p.appName })}
      </h3>
      <div className="codes-locked">
        <div>
          <div className="muted small">{t('codes.yourNumber')}</div>
          <div className="codes-number" data-testid="locked-number">
            {lock.formatPhone}
          </div>
          <div className="muted small">{lock.tip}</div>
        </div>
        <Button
          className="button"
          onPress={async () => {
            if (await copyText(`+${lock.phone}`)) p.setTip(hasSms ? p.tip : 'numberCopied');
            if (!hasSms) window.setTimeout(() => p.setTip('waiting'), 1500);
          }}
        >
          {t('codes.copyNumber')}
        </Button>
      </div>
      {lock.canSendCodeSms ? (
        <Tabs
          className="codes-mode"
          selectedKey={mode}
          onSelectionChange={(k) => setMode(k === 'send' ? 'send' : 'receive')}
        >
          <TabList aria-label={t('codes.modeLabel')} className="segmented">
            <Tab id="receive" className="segment">
              {t('codes.modeReceive')}
            </Tab>
            <Tab id="send" className="segment">
              {t('codes.modeSend')}
            </Tab>
          </TabList>
          <TabPanel id="receive" className="codes-mode-panel">
            {receiveView}
          </TabPanel>
          <TabPanel id="send" className="codes-mode-panel">
            <SendForm lock={lock} onSent={() => setSent(true)} />
          </TabPanel>
        </Tabs>
      ) : (
        receiveView
      )}
      <div className="codes-actions">
        <Button className="button" isDisabled={hasSms || p.busy} onPress={p.onTryAnother}>
          {t('codes.tryAnother')}
        </Button>
        {lock.canSub === 1 && lock.subStatus === 0 && (
          <SubscribeButton
            app={lock.app}
            number={lock.phone}
            rent={lock.subRent}
            isDisabled={!subscribable}
            confirmOpen={subConfirm}
            onConfirmOpenChange={setSubConfirm}
            onDone={() => {
              setSubscribed(true);
              p.onDone();
            }}
          />
        )}
        <Button className="button primary" onPress={() => (subscribable ? setLeave(true) : p.onDone())}>
          {t('codes.done')}
        </Button>
      </div>
      {lock.subTip && lock.canSub === 1 && <p className="muted small">{lock.subTip}</p>}
      <Dialog
        title={t('codes.leaveTitle')}
        isOpen={leave}
        onClose={() => setLeave(false)}
        role="alertdialog"
        footer={
          <>
            <Button className="button" onPress={() => setLeave(false)}>
              {t('codes.stay')}
            </Button>
            <Button
              className="button"
              onPress={() => {
                setLeave(false);
                p.onDone();
              }}
            >
              {t('codes.leave')}
            </Button>
            <Button
              className="button primary"
              onPress={() => {
                setLeave(false);
                setSubConfirm(true);
              }}
            >
              {t('codes.subscribe')}
            </Button>
          </>
        }
      >
        <p>{t('codes.leaveText')}</p>
      </Dialog>
    </section>
  );
}
