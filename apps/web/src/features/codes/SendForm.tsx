import { useState } from 'react';
import { Button, Form, Input, Label, TextArea, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type LockedPhone } from '@numa/contract';
import { SelectField } from '../../components/SelectField';
import { isApiError } from '../../lib/api';
import { useUi } from '../../stores/ui';
import { refreshBalance } from '../../shared/api/account';
import { sendFromCodeNumber } from './api/receive';

/**
 * The new-code page's send side (spec 001 §2 step 2, §5): a text from the locked number to a
 * recipient (its calling code from the number's list, the number, the text), charged as an SMS.
 * The recipient is the calling code plus the number, plus signs removed.
 */
export function SendForm({ lock, onSent }: { lock: LockedPhone; onSent: () => void }) {
  const { t } = useTranslation();
  const codes = lock.telCodeList.length ? lock.telCodeList : [lock.telCode];
  const [cc, setCc] = useState(codes[0]!);
  const [to, setTo] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const showError = useUi((s) => s.showError);
  const digits = to.replace(/\D/g, '');
  const ready = digits.length >= 4 && text.trim().length > 0 && !busy;

  const send = async () => {
    if (!ready) return;
    setBusy(true);
    setResult(null);
    const recipient = `${cc}${digits}`.replace(/\+/g, '');
    try {
      await sendFromCodeNumber({ from: lock.phone, to: recipient, app: lock.app, text: text.trim() });
      setResult({ ok: true, message: t('codes.sent', { to: `+${recipient}` }) });
      setText('');
      onSent();
      void refreshBalance();
    } catch (e) {
      if (!isApiError(e)) throw e;
      if (e.retcode === 400001) showError({ kind: 'insufficient', message: e.retmsg });
      else setResult({ ok: false, message: e.retmsg });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      className="codes-send"
      aria-label={t('codes.sendLabel')}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div className="codes-row">
        <SelectField
          label={t('codes.sendCountryCode')}
          value={cc}
          options={codes.map((c) => ({ id: c, name: `+${c}` }))}
          onChange={setCc}
        />
        <TextField className="field grow" value={to} onChange={setTo} inputMode="tel" isRequired>
          <Label className="field-label">{t('codes.sendTo')}</Label>
          <Input className="input" autoComplete="off" />
        </TextField>
      </div>
      <TextField
        className="field"
        value={text}
        onChange={setText}
        isRequired
        maxLength={constants.smsTextMax}
      >
        <Label className="field-label">{t('codes.sendText')}</Label>
        <TextArea className="input textarea" rows={3} />
      </TextField>
      <div className="codes-actions codes-actions-start">
        <Button type="submit" className="button primary" isDisabled={!ready}>
          {busy ? t('codes.sending') : t('codes.send')}
        </Button>
        <span className="muted small">{t('codes.sendCharge')}</span>
      </div>
      {result && (
        <p className={result.ok ? 'codes-send-ok' : 'codes-send-error'} role={result.ok ? 'status' : 'alert'}>
          {result.message}
        </p>
      )}
    </Form>
  );
}
