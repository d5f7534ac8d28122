import { useState } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { useUi } from '../../stores/ui';
import { cachedAccountInfo, refreshAccount } from '../../shared/api/account';
import { CaptchaModal } from '../../shared/captcha/CaptchaModal';
import { isEmailMode, useVerifyModal, type VerifyMode } from '../../shared/dialogs/verify';
import { CodeEntry } from '../../shared/signin/CodeEntry';
import { useCountdown } from '../../shared/signin/useCountdown';
import {
  askVerifyCode,
  checkVerifyCode,
  saveVerifiedAddress,
  sendVerifyCode,
  type VerifyAddress,
} from './api/verify';
import { checkEmail, checkPhone, cleanTelCode } from './logic';
import './verify.css';

type Address = VerifyAddress;
interface Sent {
  verifyid: string;
  codeLength: number;
  to: Address;
}

const defaultTelCode = () => {
  const cached = cachedAccountInfo();
  if (cached?.telCode) return cached.telCode;
  return navigator.language.toLowerCase().startsWith('zh') ? '86' : '1';
};

const shown = (to: Address) => ('email' in to ? to.email : `+${to.telcode} ${to.phone}`);

/** The global verify phone or e-mail modal; open it with `useVerifyModal.getState().open(mode)`. */
export function VerifyModal() {
  const mode = useVerifyModal((s) => s.mode);
  return mode ? <VerifyDialog key={mode} mode={mode} /> : null;
}

/**
 * Verify phone or e-mail (spec 000 §2, §4, §5): step 1 the address, step 2 the code. The code is sent
 * through the captcha (confirmCaptcha with nextApi); a 60 s countdown holds the back arrow and the
 * resend link; a wrong code clears the boxes; success sets or replaces the account's address and
 * refreshes account, profile and balance.
 */
function VerifyDialog({ mode }: { mode: VerifyMode }) {
  const { t } = useTranslation();
  const close = useVerifyModal((s) => s.close);
  const showSnackbar = useUi((s) => s.showSnackbar);
  const navigate = useUi((s) => s.navigate);
  const byEmail = isEmailMode(mode);

  const [step, setStep] = useState<'address' | 'code'>('address');
  const [telCode, setTelCode] = useState(defaultTelCode);
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<{
    field: 'telCode' | 'phone' | 'email';
    message: string;
  } | null>(null);
  const [pending, setPending] = useState<Address | null>(null);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [sent, setSent] = useState<Sent | null>(null);
  const [code, setCode] = useState('');
  const [wrongKey, setWrongKey] = useState(0);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  /** The server's resend wait for the address typed, told before any captcha (issue 13, defect 4). */
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const waitLeft = useCountdown(waitUntil);
  const [asking, setAsking] = useState(false);

  /** A refusal of a send: the resend wait counts down at once; anything else is said where the user looks. */
  const showSendError = (e: unknown, to: Address) => {
    let message = isApiError(e) ? e.retmsg : t('errors.generic');
    if (isApiError(e) && e.retcode === 100015) {
      const after = (e.data as { resendAfter?: number } | null)?.resendAfter;
      if (after && after < 120) {
        if (step === 'code') setResendAt(Date.now() + after * 1000);
        else setWaitUntil(Date.now() + after * 1000);
        return;
      }
      message = t('verify.tooFrequent');
    }
    if (step === 'code') setCodeError(message);
    else setFieldError({ field: 'email' in to ? 'email' : 'phone', message });
  };

  /**
   * Asks for a code for `to`: first the direct call, which never sends but tells the resend wait
   * still running (100015) or asks for the captcha (100028 / 100010); then the captcha sends it.
   */
  const ask = async (to: Address) => {
    if (asking) return;
    setPending(to);
    setAsking(true);
    try {
      await askVerifyCode(to);
      setCaptchaOpen(true);
    } catch (e) {
      if (isApiError(e) && (e.retcode === 100010 || e.retcode === 100028)) setCaptchaOpen(true);
      else showSendError(e, to);
    } finally {
      setAsking(false);
    }
  };

  const requestCode = () => {
    setFieldError(null);
    if (byEmail) {
      const c = checkEmail(email);
      if (!c.ok) return setFieldError({ field: 'email', message: t(`verify.errors.${c.error}`) });
      void ask({ email: c.email });
    } else {
      const c = checkPhone(telCode, phone);
      if (!c.ok) return setFieldError({ field: c.field, message: t(`verify.errors.${c.error}`) });
      void ask({ telcode: c.telcode, phone: c.phone });
    }
  };

  const resend = () => {
    if (!sent) return;
    setCodeError(null);
    void ask(sent.to);
  };

  const sendWithCaptcha = async (captchaId: string, inputCaptcha: string, pow: string | undefined) => {
    if (!pending) return;
    const to = pending;
    try {
      const res = await sendVerifyCode(to, { captchaId, inputCaptcha, pow });
      setCaptchaOpen(false);
      setSent({ verifyid: res.verifyid, codeLength: res.codeLength, to });
      setStep('code');
      setCode('');
      setCodeError(null);
      setWrongKey((k) => k + 1);
      setResendAt(Date.now() + res.resendAfter * 1000);
    } catch (e) {
      if (isApiError(e) && (e.retcode === 100020 || e.retcode === 100029)) throw e; // the captcha draws again
      setCaptchaOpen(false);
      showSendError(e, to);
    }
  };

  const submitCode = async (value: string) => {
    if (!sent || value.length !== sent.codeLength || busy) return;
    const isMail = 'email' in sent.to;
    setBusy(true);
    setCodeError(null);
    try {
      await checkVerifyCode(sent.to, sent.verifyid, value);
    } catch (e) {
      // a wrong code shows as such and clears the boxes (spec 000 §4)
      setBusy(false);
      setCode('');
      setWrongKey((k) => k + 1);
      if (isApiError(e) && e.retcode === 100004) setCodeError(t('verify.wrongCode'));
      else if (isApiError(e) && e.retcode === 100006) setCodeError(t('verify.codeExpired'));
      else setCodeError(isApiError(e) ? e.retmsg : t('errors.generic'));
      return;
    }
    try {
      await saveVerifiedAddress(sent.to, sent.verifyid);
    } catch (e) {
      setBusy(false);
      setCodeError(isApiError(e) ? e.retmsg : t('errors.generic'));
      return;
    }
    const onDone = useVerifyModal.getState().onDone;
    close();
    showSnackbar({ message: t(isMail ? 'verify.emailDone' : 'verify.phoneDone'), tone: 'success' });
    await refreshAccount();
    if (mode === 'updateForUnlockBonus') navigate('tabAccount', 'redeemCode');
    onDone?.();
  };

  const backToAddress = () => {
    setStep('address');
    setCode('');
    setCodeError(null);
  };

  const title = t(byEmail ? 'verify.titleEmail' : 'verify.titlePhone');
  return (
    <>
      <Dialog isOpen onClose={close} title={title} width={440} dismissable={!busy} className="verify-dialog">
        {step === 'address' ? (
          <Form
            validationBehavior="aria"
            onSubmit={(e) => {
              e.preventDefault();
              requestCode();
            }}
          >
            <p className="muted">{t(`verify.lead.${mode}`)}</p>
            {byEmail ? (
              <TextField
                className="field"
                type="email"
                value={email}
                onChange={(v) => {
                  setEmail(v);
                  setWaitUntil(null);
                }}
                isInvalid={fieldError?.field === 'email'}
                autoFocus
              >
                <Label className="field-label">{t('verify.email')}</Label>
                <Input
                  className="input"
                  autoComplete="email"
                  placeholder={t('login.emailPlaceholder')}
                  maxLength={254}
                />
                <FieldError className="field-error">{fieldError?.message}</FieldError>
              </TextField>
            ) : (
              <div className="phone-row">
                <TextField
                  className="field verify-telcode"
                  value={telCode}
                  onChange={(v) => {
                    setTelCode(cleanTelCode(v));
                    setWaitUntil(null);
                  }}
                  isInvalid={fieldError?.field === 'telCode'}
                >
                  <Label className="field-label">{t('verify.countryCode')}</Label>
                  <div className="prefixed">
                    <span aria-hidden="true">+</span>
                    <Input className="input" inputMode="numeric" autoComplete="tel-country-code" />
                  </div>
                  <FieldError className="field-error">
                    {fieldError?.field === 'telCode' ? fieldError.message : null}
                  </FieldError>
                </TextField>
                <TextField
                  className="field grow"
                  type="tel"
                  value={phone}
                  onChange={(v) => {
                    setPhone(v);
                    setWaitUntil(null);
                  }}
                  isInvalid={fieldError?.field === 'phone'}
                  autoFocus
                >
                  <Label className="field-label">{t('verify.phone')}</Label>
                  <Input className="input" inputMode="tel" autoComplete="tel-national" maxLength={24} />
                  <FieldError className="field-error">
                    {fieldError?.field === 'phone' ? fieldError.message : null}
                  </FieldError>
                </TextField>
              </div>
            )}
            <Button type="submit" className="button primary block" isDisabled={waitLeft > 0 || asking}>
              {asking ? <Spinner size={16} /> : null} {t('verify.sendCode')}
            </Button>
            <p className="wait-notice muted" role="status" aria-live="polite">
              {waitLeft > 0 ? t('verify.waitSeconds', { s: waitLeft }) : null}
            </p>
          </Form>
        ) : (
          <CodeEntry
            texts="verify"
            className="verify-code-step"
            header={(secondsLeft) => (
              <div className="verify-code-head">
                {secondsLeft === 0 && (
                  <Button className="icon-button" aria-label={t('app.back')} onPress={backToAddress}>
                    <span aria-hidden="true">←</span>
                  </Button>
                )}
                <p className="grow">{t('verify.codeSentTo', { to: sent ? shown(sent.to) : '' })}</p>
              </div>
            )}
            length={sent?.codeLength ?? 4}
            value={code}
            onChange={setCode}
            onSubmit={(v) => void submitCode(v)}
            error={codeError}
            resetKey={wrongKey}
            busy={busy}
            submitLabel={
              <>
                {busy && <Spinner size={16} />} {t('verify.verify')}
              </>
            }
            resendAt={resendAt}
            onResend={resend}
            resending={asking}
          />
        )}
      </Dialog>
      <CaptchaModal isOpen={captchaOpen} onClose={() => setCaptchaOpen(false)} onSubmit={sendWithCaptcha} />
    </>
  );
}
