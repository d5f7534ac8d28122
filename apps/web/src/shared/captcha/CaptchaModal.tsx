import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type CaptchaImage } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { drawCaptcha } from '../api/captcha';
import { useUi } from '../../stores/ui';
import { lockedFor } from './captchaCounter';
import { solvePow } from './pow';

/** "generated randomly from time and a random string" (spec 000 §7). */
export const newCaptchaId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export interface CaptchaModalProps {
  isOpen: boolean;
  onClose: () => void;
  /**
   * Runs the protected call with the answer and the drawing's solved proof of work (undefined when
   * `proofOfWork` is off). Resolve: passed. Throw an ApiError 100020 (with a fresh drawing in `data`)
   * for a wrong answer, 100029 for a proof of work the server refused; any other error is shown.
   */
  onSubmit: (captchaId: string, answer: string, pow: string | undefined) => Promise<void>;
  /** Whether the call sends a code and so needs the proof of work (contract auth.ts). Default: yes. */
  proofOfWork?: boolean;
}

/**
 * The graphic captcha (spec 001 §8): counter in a cookie (the server's), locked on the third failure. Each drawing
 * comes with a proof-of-work challenge that Web Workers work out while the person reads the picture;
 * Confirm waits for it ("Checking…") when it is not done yet.
 */
export function CaptchaModal({ isOpen, onClose, onSubmit, proofOfWork = true }: CaptchaModalProps) {
  const { t } = useTranslation();
  const setCaptchaOpen = useUi((s) => s.setCaptchaOpen);
  const showAlert = useUi((s) => s.showAlert);
  const [captchaId, setCaptchaId] = useState(newCaptchaId);
  const [drawing, setDrawing] = useState<CaptchaImage | null>(null);
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'checking' | 'sending' | null>(null);
  const [lockLeft, setLockLeft] = useState(() => lockedFor());
  const inputRef = useRef<HTMLInputElement>(null);
  /** The proof of work of the drawing on screen, being worked out. */
  const proof = useRef<{ promise: Promise<string | null>; abort: AbortController } | null>(null);

  const show = useCallback(
    (img: CaptchaImage | null) => {
      proof.current?.abort.abort();
      proof.current = null;
      setDrawing(img);
      if (img && proofOfWork) {
        const abort = new AbortController();
        proof.current = { abort, promise: solvePow(img.pow, abort.signal).catch(() => null) };
      }
    },
    [proofOfWork],
  );

  const draw = useCallback(
    async (id: string) => {
      show(null);
      try {
        show(await drawCaptcha(id));
      } catch (e) {
        setError(isApiError(e) ? e.retmsg : t('errors.generic'));
      }
    },
    [t, show],
  );

  useEffect(() => {
    setCaptchaOpen(isOpen);
    if (!isOpen) return;
    const id = newCaptchaId();
    setCaptchaId(id);
    setAnswer('');
    setError(null);
    setLockLeft(lockedFor());
    void draw(id);
    return () => {
      setCaptchaOpen(false);
      proof.current?.abort.abort();
      proof.current = null;
    };
  }, [isOpen, draw, setCaptchaOpen]);

  const submit = async () => {
    if (lockedFor() > 0 || !drawing) return;
    if (!answer.trim()) {
      setError(t('captcha.required'));
      return;
    }
    setError(null);
    let pow: string | undefined;
    if (proofOfWork) {
      setBusy('checking');
      pow = (await proof.current?.promise) ?? undefined;
      if (!pow) {
        setBusy(null);
        setError(t('captcha.checkFailed'));
        void draw(captchaId);
        return;
      }
    }
    setBusy('sending');
    try {
      await onSubmit(captchaId, answer.trim(), pow);
      setBusy(null);
    } catch (e) {
      // the spinner clears after a short wait on failure (spec 001 §8)
      window.setTimeout(() => setBusy(null), Math.min(constants.captchaLoadingClearMs, 600));
      if (isApiError(e) && e.retcode === 100029) {
        // the proof of work was refused (expired while the picture stayed open): a new drawing, no failure counted
        setAnswer('');
        setError(t('captcha.checkFailed'));
        void draw(captchaId);
        inputRef.current?.focus();
        return;
      }
      if (isApiError(e) && e.retcode === 100020) {
        setAnswer('');
        // the server counted the failure in the cookie; the third one locks
        if (lockedFor() > 0) {
          setLockLeft(lockedFor());
          onClose();
          showAlert(t('captcha.tooMany'));
          return;
        }
        const fresh = endpoints.genCaptcha.output.safeParse(e.data);
        if (fresh.success) show(fresh.data);
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
        <p className="muted">
          {locked ? t('captcha.locked', { min: Math.ceil(lockLeft / 60000) }) : t('captcha.instructions')}
        </p>
        <div className="captcha-row">
          <div className="captcha-image">
            {drawing ? (
              <img
                src={drawing.image}
                alt={t('captcha.image')}
                width={drawing.width}
                height={drawing.height}
              />
            ) : (
              <Spinner label={t('app.loading')} />
            )}
          </div>
          <Button className="link-button" onPress={() => void draw(captchaId)} isDisabled={locked || !!busy}>
            {t('captcha.refresh')}
          </Button>
        </div>
        <TextField
          className="field"
          value={answer}
          onChange={setAnswer}
          isInvalid={!!error}
          isDisabled={locked}
          autoFocus
        >
          <Label className="field-label">{t('captcha.input')}</Label>
          <Input ref={inputRef} className="input" autoComplete="off" maxLength={12} />
          <FieldError className="field-error">{error}</FieldError>
        </TextField>
        <Button type="submit" className="button primary block" isDisabled={!!busy || locked || !drawing}>
          {busy ? (
            <>
              <Spinner size={16} /> {busy === 'checking' ? t('captcha.checking') : t('captcha.submit')}
            </>
          ) : (
            t('captcha.submit')
          )}
        </Button>
      </Form>
    </Dialog>
  );
}
