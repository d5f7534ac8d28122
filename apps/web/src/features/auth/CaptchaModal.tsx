import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, endpoints } from '@numa/contract';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { call, isApiError } from '../../lib/api';
import { useUi } from '../../stores/ui';
import { clearFailures, lockedFor, recordFailure } from './captchaCounter';

/** "generated randomly from time and a random string" (spec 000 §7). */
export const newCaptchaId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export interface CaptchaModalProps {
  isOpen: boolean;
  onClose: () => void;
  /**
   * Runs the protected call with the answer. Resolve: passed. Throw an ApiError 100020 (with a fresh
   * drawing in `data`) for a wrong answer; any other error is shown in the modal.
   */
  onSubmit: (captchaId: string, answer: string) => Promise<void>;
}

/** The graphic captcha (spec 001 §8): counter in a cookie, locked on the third failure. */
export function CaptchaModal({ isOpen, onClose, onSubmit }: CaptchaModalProps) {
  const { t } = useTranslation();
  const setCaptchaOpen = useUi((s) => s.setCaptchaOpen);
  const showAlert = useUi((s) => s.showAlert);
  const [captchaId, setCaptchaId] = useState(newCaptchaId);
  const [svg, setSvg] = useState<string | null>(null);
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lockLeft, setLockLeft] = useState(() => lockedFor());
  const inputRef = useRef<HTMLInputElement>(null);

  const draw = useCallback(async (id: string) => {
    setSvg(null);
    try {
      const img = await call(endpoints.genCaptcha, { captchaId: id }, { silent: true });
      setSvg(img.svg);
    } catch (e) {
      setError(isApiError(e) ? e.retmsg : t('errors.generic'));
    }
  }, [t]);

  useEffect(() => {
    setCaptchaOpen(isOpen);
    if (!isOpen) return;
    const id = newCaptchaId();
    setCaptchaId(id);
    setAnswer('');
    setError(null);
    setLockLeft(lockedFor());
    void draw(id);
    return () => setCaptchaOpen(false);
  }, [isOpen, draw, setCaptchaOpen]);

  const submit = async () => {
    if (lockedFor() > 0) return;
    if (!answer.trim()) {
      setError(t('captcha.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(captchaId, answer.trim());
      clearFailures();
      setBusy(false);
    } catch (e) {
      // the spinner clears after a short wait on failure (spec 001 §8)
      window.setTimeout(() => setBusy(false), Math.min(constants.captchaLoadingClearMs, 600));
      if (isApiError(e) && e.retcode === 100020) {
        setAnswer('');
        if (recordFailure()) {
          setLockLeft(lockedFor());
          onClose();
          showAlert(t('captcha.tooMany'));
          return;
        }
        const fresh = (e.data as { svg?: unknown } | null)?.svg;
        if (typeof fresh === 'string') setSvg(fresh);
        else void draw(captchaId);
        setError(t('captcha.wrong'));
        inputRef.current?.focus();
        return;
      }
      setError(isApiError(e) ? e.retmsg : t('errors.generic'));
    }
  };

  const locked = lockLeft > 0;
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('captcha.title')} width={360}>
      <Form
        className="captcha-form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="muted">{locked ? t('captcha.locked', { min: Math.ceil(lockLeft / 60000) }) : t('captcha.instructions')}</p>
        <div className="captcha-row">
          <div className="captcha-image">
            {svg ? (
              <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={t('captcha.image')} width={120} height={44} />
            ) : (
              <Spinner label={t('app.loading')} />
            )}
          </div>
          <Button className="link-button" onPress={() => void draw(captchaId)} isDisabled={locked}>
            {t('captcha.refresh')}
          </Button>
        </div>
        <TextField className="field" value={answer} onChange={setAnswer} isInvalid={!!error} isDisabled={locked} autoFocus>
          <Label className="field-label">{t('captcha.input')}</Label>
          <Input ref={inputRef} className="input" autoComplete="off" maxLength={12} />
          <FieldError className="field-error">{error}</FieldError>
        </TextField>
        <Button type="submit" className="button primary block" isDisabled={busy || locked}>
          {busy ? <Spinner size={16} /> : null} {t('captcha.submit')}
        </Button>
      </Form>
    </Dialog>
  );
}
