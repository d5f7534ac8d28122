import { useId, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { CodeInput } from '../../components/CodeInput';
import { useCountdown } from './useCountdown';

export interface CodeEntryProps {
  /**
   * The locale group holding the screen's own texts (`enterCode`, `code`, `resendIn`, `resend`): the
   * login screen's and the verify modal's words differ in Chinese.
   */
  texts: 'login' | 'verify';
  /**
   * Above the boxes: where the code went and the way back to the address (the login's Change link;
   * the verify modal's back arrow, once `secondsLeft`, the wait before Resend, is over).
   */
  header: (secondsLeft: number) => ReactNode;
  length: number;
  value: string;
  onChange: (value: string) => void;
  /** Runs with the whole code: on the last digit typed or pasted, and on the submit button. */
  onSubmit: (value: string) => void;
  /** Under the boxes; the boxes show as invalid while it is set. */
  error: string | null;
  /** Changes when the boxes must be cleared and focused again (a wrong code, a new code). */
  resetKey: number;
  /** Checking the code: the boxes and the button wait. */
  busy: boolean;
  submitLabel: ReactNode;
  /** When Resend is offered again (epoch ms); until then its countdown shows. */
  resendAt: number | null;
  onResend: () => void;
  /** A code is being asked for already. */
  resending: boolean;
  className?: string;
}

/**
 * The step where a sign-in code is typed (spec 000 §2 Login, §4 Verify): one box per digit, the
 * error, the submit button and Resend after its countdown. The login screen and the verify phone or
 * e-mail modal both use it (issue 19 §4).
 */
export function CodeEntry({
  texts,
  header,
  length,
  value,
  onChange,
  onSubmit,
  error,
  resetKey,
  busy,
  submitLabel,
  resendAt,
  onResend,
  resending,
  className,
}: CodeEntryProps) {
  const { t } = useTranslation();
  const id = useId();
  const secondsLeft = useCountdown(resendAt);
  return (
    <Form
      className={`code-step ${className ?? ''}`}
      validationBehavior="aria"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(value);
      }}
    >
      {header(secondsLeft)}
      <p id={`${id}-help`} className="field-label">
        {t(`${texts}.enterCode`, { count: length })}
      </p>
      <CodeInput
        length={length}
        value={value}
        onChange={onChange}
        onComplete={onSubmit}
        invalid={!!error}
        resetKey={resetKey}
        label={t(`${texts}.code`)}
        describedBy={`${id}-help ${id}-error`}
        disabled={busy}
      />
      <p id={`${id}-error`} className="field-error" role="alert">
        {error}
      </p>
      <Button type="submit" className="button primary block" isDisabled={busy || value.length !== length}>
        {submitLabel}
      </Button>
      <p className="resend">
        {secondsLeft > 0 ? (
          <span aria-live="polite">{t(`${texts}.resendIn`, { s: secondsLeft })}</span>
        ) : (
          <Button className="link-button" onPress={onResend} isDisabled={resending}>
            {t(`${texts}.resend`)}
          </Button>
        )}
      </p>
    </Form>
  );
}
