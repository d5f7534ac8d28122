import { useMemo, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, R } from '@numa/contract';
import { Spinner } from '../../../components/Spinner';
import { isApiError } from '../../../lib/api';
import { storage } from '../../../lib/storage';
import { speechToText } from '../api/chats';
import { sttLanguageName, sttLanguageTags } from '../logic/sttLanguages';
import type { ConvoMessage } from '../state/convo';
import { MicIcon } from './icons';

const LANG_KEY = 'numa.chats.sttLanguage';

/**
 * A voice message (spec 000 §2): the recording, and speech-to-text in a chosen language (automatic
 * first). The choice is kept on the device. With no provider the server answers 600000 and the spec's
 * 'temporarily unavailable' text shows in place.
 */
export function VoiceMessage({ url, message }: { url: string; message: ConvoMessage }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.language === 'zh' ? 'zh' : 'en';
  const [language, setLanguage] = useState(() => {
    const kept = storage.get(LANG_KEY);
    return kept && (sttLanguageTags as readonly string[]).includes(kept) ? kept : 'auto';
  });
  const done = message.sttStatus === constants.sttStatus.done && message.stt;
  const [state, setState] = useState<
    { kind: 'idle' } | { kind: 'working' } | { kind: 'done'; text: string } | { kind: 'error'; text: string }
  >(() => (done ? { kind: 'done', text: message.stt ?? '' } : { kind: 'idle' }));
  const items = useMemo(
    () =>
      sttLanguageTags.map((tag) => ({
        id: tag,
        name: tag === 'auto' ? t('chats.stt.auto') : sttLanguageName(tag, uiLang),
      })),
    [t, uiLang],
  );

  const transcribe = async () => {
    setState({ kind: 'working' });
    try {
      const res = await speechToText(url, language, message.smsId);
      setState({ kind: 'done', text: res.text });
    } catch (e) {
      const unavailable = !isApiError(e) || e.retcode === R.sttUnavailable;
      setState({
        kind: 'error',
        text: unavailable ? t('chats.stt.unavailable') : e.retmsg || t('chats.stt.failed'),
      });
    }
  };

  return (
    <div className="voice">
      <span className="voice-title">
        <MicIcon /> {t('chats.stt.voice')}
      </span>
      <audio className="voice-audio" controls preload="none" src={url} aria-label={t('chats.stt.voice')} />
      {message.getStt !== false && (
        <div className="voice-stt">
          <ComboBox
            className="field voice-lang"
            items={items}
            selectedKey={language}
            onSelectionChange={(key) => {
              if (typeof key !== 'string') return;
              setLanguage(key);
              storage.set(LANG_KEY, key);
            }}
            menuTrigger="focus"
          >
            <Label className="field-label">{t('chats.stt.language')}</Label>
            <div className="combo">
              <Input className="input combo-input" />
              <Button className="combo-button" aria-label={t('chats.stt.language')}>
                <span aria-hidden="true">▾</span>
              </Button>
            </div>
            <Popover className="popover" placement="bottom start">
              <ListBox className="listbox">
                {(item: { id: string; name: string }) => (
                  <ListBoxItem className="listbox-item" id={item.id} textValue={item.name}>
                    {item.name}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </ComboBox>
          <Button
            className="button voice-button"
            onPress={() => void transcribe()}
            isDisabled={state.kind === 'working'}
          >
            {state.kind === 'working' ? <Spinner size={14} /> : null}
            {t('chats.stt.button')}
          </Button>
        </div>
      )}
      {state.kind === 'working' && <p className="voice-note muted">{t('chats.stt.working')}</p>}
      {state.kind === 'done' && (
        <p className="voice-transcript">
          <span className="muted">{t('chats.stt.transcript')}</span> {state.text}
        </p>
      )}
      {state.kind === 'error' && (
        <p className="voice-note error" role="alert">
          {state.text}
        </p>
      )}
    </div>
  );
}
