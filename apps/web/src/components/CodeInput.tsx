import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface CodeInputProps {
  length: number;
  value: string;
  onChange: (value: string) => void;
  /** Called when the last box is filled. */
  onComplete?: (value: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  /** Changes when the boxes must be cleared and focused again (wrong code). */
  resetKey?: number;
  label: string;
  describedBy?: string;
}

/** One box per code digit: typing moves on, Backspace moves back, pasting fills them all. */
export function CodeInput({
  length,
  value,
  onChange,
  onComplete,
  disabled,
  invalid,
  resetKey,
  label,
  describedBy,
}: CodeInputProps) {
  const { t } = useTranslation();
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const digits = Array.from({ length }, (_, i) => value[i] ?? '');

  useEffect(() => {
    refs.current[0]?.focus();
  }, [resetKey]);

  const setAt = (i: number, ch: string) => {
    const next = digits.slice();
    next[i] = ch;
    const joined = next.join('').slice(0, length);
    onChange(joined);
    if (ch && i < length - 1) refs.current[i + 1]?.focus();
    if (next.every((d) => d) && joined.length === length) onComplete?.(joined);
  };

  const onKeyDown = (i: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace' && !digits[i] && i > 0) {
      e.preventDefault();
      refs.current[i - 1]?.focus();
      setAt(i - 1, '');
    } else if (e.key === 'ArrowLeft' && i > 0) refs.current[i - 1]?.focus();
    else if (e.key === 'ArrowRight' && i < length - 1) refs.current[i + 1]?.focus();
  };

  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const pasted = e.clipboardData.getData('text').replace(/\D/g, '').slice(0, length);
    if (!pasted) return;
    e.preventDefault();
    onChange(pasted);
    refs.current[Math.min(pasted.length, length - 1)]?.focus();
    if (pasted.length === length) onComplete?.(pasted);
  };

  return (
    <div
      role="group"
      aria-label={label}
      aria-describedby={describedBy}
      className={`code-input ${invalid ? 'is-invalid' : ''}`}
    >
      {digits.map((d, i) => (
        <input
          key={i}
          ref={(el) => {
            refs.current[i] = el;
          }}
          className="code-box"
          inputMode="numeric"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          maxLength={1}
          value={d}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-label={t('login.digit', { n: i + 1, count: length })}
          onChange={(e) => setAt(i, e.target.value.replace(/\D/g, '').slice(-1))}
          onKeyDown={onKeyDown(i)}
          onPaste={onPaste}
          onFocus={(e) => e.target.select()}
        />
      ))}
    </div>
  );
}
