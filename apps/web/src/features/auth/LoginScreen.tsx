import { Suspense, useRef, useState, type KeyboardEvent } from 'react';
import { Button, FieldError, Form, Input, Label, Link, TextField } from 'react-aria-components';
import { Trans, useTranslation } from 'react-i18next';
import { constants, type Lang } from '@numa/contract';
import { lazyNamed } from '../../components/lazy';
import { Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { brand } from '../../lib/config';
import { useSession } from '../../stores/session';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { AppDownloadButton } from '../../components/AppDownload';
import { CodeEntry } from '../../shared/signin/CodeEntry';
import { useCountdown } from '../../shared/signin/useCountdown';
import { requestSignInCode, signInWithCode } from './api/signin';

type Method = 'email' | 'phone';

// The phone tab's country picker and number rules (libphonenumber-js metadata) are chunks of their
// own, fetched when the phone tab is chosen: the login screen opens on e-mail.
const CountryCodePicker = lazyNamed(() => import('../../components/CountryCodePicker'), 'CountryCodePicker');
const phoneRules = () => import('@numa/contract/phone');
const QueryScope = lazyNamed(() => import('../../components/QueryScope'), 'QueryScope', { entry: true });
// the captcha (and its proof-of-work solver) once a code is asked for
const CaptchaModal = lazyNamed(() => import('../../shared/captcha/CaptchaModal'), 'CaptchaModal');
type Address = { email: string } | { telCode: string; phone: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,24}$/;

function defaultRegion(): { region: string; telCode: string } {
  const lang = navigator.language;
  if (/^zh/i.test(lang)) return { region: 'CN', telCode: '86' };
  if (/-GB$/i.test(lang)) return { region: 'GB', telCode: '44' };
  if (/-CA$/i.test(lang)) return { region: 'CA', telCode: '1' };
  if (/-AU$/i.test(lang)) return { region: 'AU', telCode: '61' };
  return { region: 'US', telCode: '1' };
}

const methods: Method[] = ['email', 'phone'];

/**
 * E-mail or phone: a two-tab tablist written out (WAI-ARIA tabs, automatic activation: arrows, Home
 * and End move and select). react-aria's Tabs would bring its collection machinery, about 12 KiB
 * compressed, into the login screen's first load (docs/decisions.md).
 */
function MethodTabs({
  label,
  method,
  onChange,
}: {
  label: string;
  method: Method;
  onChange: (m: Method) => void;
}) {
  const { t } = useTranslation();
  const refs = useRef<Partial<Record<Method, HTMLButtonElement | null>>>({});
  const onKeyDown = (e: KeyboardEvent) => {
    const i = methods.indexOf(method);
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? methods[(i + 1) % methods.length]
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? methods[(i + methods.length - 1) % methods.length]
          : e.key === 'Home'
            ? methods[0]
            : e.key === 'End'
              ? methods[methods.length - 1]
              : undefined;
    if (!next) return;
    e.preventDefault();
    onChange(next);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="segmented" onKeyDown={onKeyDown}>
      {methods.map((m) => (
        <button
          key={m}
          ref={(el) => {
            refs.current[m] = el;
          }}
          type="button"
          role="tab"
          id={`login-tab-${m}`}
          aria-controls={`login-panel-${m}`}
          aria-selected={method === m}
          tabIndex={method === m ? 0 : -1}
          data-selected={method === m || undefined}
          className="segment"
          onClick={() => onChange(m)}
        >
          {t(m === 'email' ? 'login.byEmail' : 'login.byPhone')}
        </button>
      ))}
    </div>
  );
}

/**
 * Sign in with an e-mail address or a phone number and a code (spec 000 §2 Login). `onSignedIn`: where
 * the shell goes once the session starts.
 */
export function LoginScreen({
  onShowFront,
  onSignedIn,
}: {
  onShowFront?: () => void;
  onSignedIn: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const signIn = useSession((s) => s.signIn);
  const endedBy = useSession((s) => s.endedBy);

  const [method, setMethod] = useState<Method>('email');
  const [email, setEmail] = useState('');
  const [{ region, telCode }, setCountry] = useState(defaultRegion);
  const [phone, setPhone] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);

  const [step, setStep] = useState<'address' | 'code'>('address');
  const [sentTo, setSentTo] = useState<Address | null>(null);
  const [codeLength, setCodeLength] = useState<number>(constants.signin.codeLength.email);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [wrongKey, setWrongKey] = useState(0);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [signingIn, setSigningIn] = useState(false);
  /** The server's resend wait for the address being typed, told before any captcha (issue 13, defect 4). */
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const waitLeft = useCountdown(waitUntil);
  const [asking, setAsking] = useState(false);

  const currentAddress = async (): Promise<Address | null> => {
    if (method === 'email') {
      const v = email.trim();
      if (!v) return (setAddressError(t('login.emailRequired')), null);
      if (!EMAIL.test(v)) return (setAddressError(t('login.emailInvalid')), null);
      return { email: v };
    }
    const digits = phone.replace(/[\s()-]/g, '');
    if (!telCode) return (setAddressError(t('login.countryCodeRequired')), null);
    if (!digits) return (setAddressError(t('login.phoneRequired')), null);
    // the server's own reading (contract phone.ts): the same metadata, the same E.164 split, loaded
    // when the phone tab is used (it is not part of the first load)
    const normal = (await phoneRules()).normalizePhone(telCode, digits);
    if (!normal) return (setAddressError(t('login.phoneInvalid')), null);
    return { telCode: normal.telCode, phone: normal.phone };
  };

  /** A refusal of a send: the resend wait counts down where the user looks; anything else is said. */
  const showSendError = (e: unknown) => {
    if (isApiError(e) && e.retcode === 100015) {
      const after = (e.data as { resendAfter?: number } | null)?.resendAfter;
      if (after && after < 120) {
        if (step === 'code') setResendAt(Date.now() + after * 1000);
        else setWaitUntil(Date.now() + after * 1000);
        return;
      }
      const msg = `${t('login.tooFrequent')} ${e.retmsg}`;
      if (step === 'code') setCodeError(msg);
      else setAddressError(msg);
      return;
    }
    const msg = isApiError(e) ? e.retmsg : t('errors.generic');
    if (step === 'code') setCodeError(msg);
    else setAddressError(msg);
  };

  /**
   * Get code / Resend: first asked without a captcha. The server never sends then: it answers the
   * resend wait still running (100015, shown as a countdown at once) or asks for the captcha (100010).
   */
  const askForCode = async () => {
    setAddressError(null);
    if (asking) return;
    const address = step === 'code' && sentTo ? sentTo : await currentAddress();
    if (!address) return;
    setSentTo(address);
    setAsking(true);
    try {
      await requestSignInCode(address);
      setCaptchaOpen(true);
    } catch (e) {
      if (isApiError(e) && e.retcode === 100010) setCaptchaOpen(true);
      else showSendError(e);
    } finally {
      setAsking(false);
    }
  };

  const sendCode = async (captchaId: string, inputCaptcha: string, pow: string | undefined) => {
    if (!sentTo) return;
    try {
      const res = await requestSignInCode({ ...sentTo, captchaId, inputCaptcha, ...(pow ? { pow } : {}) });
      setCaptchaOpen(false);
      setCodeLength(res.codeLength);
      setCode('');
      setCodeError(null);
      setResendAt(Date.now() + res.resendAfter * 1000);
      setStep('code');
      setWrongKey((k) => k + 1);
    } catch (e) {
      if (isApiError(e) && (e.retcode === 100020 || e.retcode === 100029)) throw e;
      setCaptchaOpen(false);
      showSendError(e);
    }
  };

  const typed =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setWaitUntil(null); // the wait was another address's
    };

  const logIn = async (value: string) => {
    if (!sentTo || value.length !== codeLength || signingIn) return;
    setSigningIn(true);
    setCodeError(null);
    try {
      const res = await signInWithCode({ ...sentTo, code: value });
      signIn(res.token, { canInvite: res.canInvite, canSetInviter: res.canSetInviter });
      onSignedIn();
    } catch (e) {
      setCode('');
      setWrongKey((k) => k + 1);
      if (isApiError(e) && e.retcode === 100004) setCodeError(t('login.wrongCode'));
      else if (isApiError(e) && e.retcode === 100006) setCodeError(t('login.codeExpired'));
      else setCodeError(isApiError(e) ? e.retmsg : t('errors.generic'));
    } finally {
      setSigningIn(false);
    }
  };

  const shownAddress = sentTo
    ? 'email' in sentTo
      ? sentTo.email
      : `+${sentTo.telCode} ${sentTo.phone}`
    : '';

  return (
    <div className="login-page">
      <header className="login-top">
        <span className="brand-mark" aria-hidden="true">
          {brand.name[lang].slice(0, 1)}
        </span>
        <span className="brand-name">{brand.name[lang]}</span>
        <span className="spacer" />
        <LanguageSwitch />
      </header>
      <main id="main" className="login-card">
        <h1>{t('login.title', { brand: brand.name[lang] })}</h1>
        {endedBy !== null && <p className="notice">{t('login.endedNotice')}</p>}
        {step === 'address' ? (
          <>
            <p className="muted">{t('login.subtitle')}</p>
            <>
              <MethodTabs
                label={t('login.method')}
                method={method}
                onChange={(k) => {
                  setMethod(k);
                  if (k === 'phone') void phoneRules();
                  setAddressError(null);
                  setWaitUntil(null);
                }}
              />
              <Form
                validationBehavior="aria"
                onSubmit={(e) => {
                  e.preventDefault();
                  void askForCode();
                }}
              >
                {method === 'email' && (
                  <div
                    role="tabpanel"
                    id="login-panel-email"
                    aria-labelledby="login-tab-email"
                    className="tab-panel"
                  >
                    <TextField
                      className="field"
                      type="email"
                      value={email}
                      onChange={typed(setEmail)}
                      isInvalid={!!addressError}
                      autoFocus
                    >
                      <Label className="field-label">{t('login.email')}</Label>
                      <Input
                        className="input"
                        placeholder={t('login.emailPlaceholder')}
                        autoComplete="email"
                      />
                      <FieldError className="field-error">{addressError}</FieldError>
                    </TextField>
                  </div>
                )}
                {method === 'phone' && (
                  <div
                    role="tabpanel"
                    id="login-panel-phone"
                    aria-labelledby="login-tab-phone"
                    className="tab-panel phone-row"
                  >
                    <Suspense fallback={<Spinner label={t('app.loading')} />}>
                      <QueryScope>
                        <CountryCodePicker
                          label={t('login.countryCode')}
                          region={region}
                          onChange={(r, code) => typed(setCountry)({ region: r, telCode: code })}
                        />
                      </QueryScope>
                    </Suspense>
                    <TextField
                      className="field grow"
                      type="tel"
                      value={phone}
                      onChange={typed(setPhone)}
                      isInvalid={!!addressError}
                    >
                      <Label className="field-label">{t('login.phone')}</Label>
                      <Input
                        className="input"
                        placeholder={t('login.phonePlaceholder')}
                        autoComplete="tel-national"
                        inputMode="tel"
                      />
                      <FieldError className="field-error">{addressError}</FieldError>
                    </TextField>
                  </div>
                )}
                <Button type="submit" className="button primary block" isDisabled={waitLeft > 0 || asking}>
                  {asking ? <Spinner size={16} /> : null} {t('login.getCode')}
                </Button>
                <p className="wait-notice muted" role="status" aria-live="polite">
                  {waitLeft > 0 ? t('login.waitSeconds', { s: waitLeft }) : null}
                </p>
              </Form>
            </>
          </>
        ) : (
          <CodeEntry
            texts="login"
            header={() => (
              <p>
                {t('login.codeSentTo', { to: shownAddress })}{' '}
                <Button
                  className="link-button"
                  onPress={() => {
                    setStep('address');
                    setCode('');
                    setCodeError(null);
                  }}
                >
                  {t('login.change')}
                </Button>
              </p>
            )}
            length={codeLength}
            value={code}
            onChange={setCode}
            onSubmit={(v) => void logIn(v)}
            error={codeError}
            resetKey={wrongKey}
            busy={signingIn}
            submitLabel={
              signingIn ? (
                <>
                  <Spinner size={16} /> {t('login.signingIn')}
                </>
              ) : (
                t('login.logIn')
              )
            }
            resendAt={resendAt}
            onResend={() => void askForCode()}
            resending={asking}
          />
        )}
        <p className="terms muted">
          <Trans
            i18nKey="login.terms"
            components={{
              terms: <Link href={brand.termsUrl} target="_blank" rel="noreferrer" />,
              privacy: <Link href={brand.privacyUrl} target="_blank" rel="noreferrer" />,
            }}
          />
        </p>
      </main>
      <footer className="login-footer">
        {onShowFront && (
          <Button className="link-button" onPress={onShowFront}>
            {t('login.explore', { brand: brand.name[lang] })}
          </Button>
        )}
        <AppDownloadButton />
      </footer>
      {captchaOpen && (
        <Suspense fallback={null}>
          <CaptchaModal isOpen onClose={() => setCaptchaOpen(false)} onSubmit={sendCode} />
        </Suspense>
      )}
    </div>
  );
}
