import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { Button, FileTrigger, Tooltip, TooltipTrigger } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { useUi } from '../../../stores/ui';
import { checkPicture } from '../../../lib/imageType';
import { acceptedImageTypes, prepareImage } from '../logic/image';
import { messageText } from '../logic/sanitize';
import type { OutgoingImage } from '../state/service';
import { SendLater } from '../scheduled/lazy';
import { shownTime } from '../scheduled/time';
import { TemplateMenu } from '../templates/TemplateMenu';
import { EmojiPicker } from './EmojiPicker';
import { ClockIcon, ImageIcon, SendIcon } from './icons';

export interface ComposerProps {
  /** Sending is allowed now (spec 000 §5: connected, no call running, a chat chosen, not picking). */
  canSend: boolean;
  /** Why not, shown as the box's placeholder. */
  blockedHint?: string | undefined;
  /**
   * The block lasts until the user does something (no reply possible, no number picked): a send
   * then says why. Otherwise it passes by itself (connecting, loading) and a send waits for it.
   */
  blockFinal?: boolean;
  onSendText(text: string): boolean;
  onSendImage(image: OutgoingImage): void | Promise<void>;
  /** Focusing the input clears the chat's unread count (spec 000 §4). */
  onFocus?(): void;
  /** Moves focus to the box when it appears (a chat was opened). */
  autoFocus?: boolean;
  /** The conversation a "Send later" schedules into (issue 22 §2); none: no Send later button. */
  sendLater?: { fromNumber: string; toNumber: string } | undefined;
}

/** Inserts plain text at the caret (keeps the browser's undo where it can). */
function insertText(text: string) {
  if (!document.execCommand('insertText', false, text)) {
    const sel = window.getSelection();
    if (!sel?.rangeCount) return;
    const range = sel.getRangeAt(0);
    range.deleteContents();
    range.insertNode(document.createTextNode(text));
    range.collapse(false);
  }
}

/**
 * The input box (spec 000 §2, §5): picture upload (the 300 KB / 2 MB rules, compressed on a canvas),
 * emoji, and the message box — Enter sends, Shift+Enter breaks the line, pasting inserts plain text,
 * and the box's HTML is sanitised into the text that is sent.
 */
export function Composer({
  canSend,
  blockedHint,
  blockFinal = false,
  onSendText,
  onSendImage,
  onFocus,
  autoFocus,
  sendLater,
}: ComposerProps) {
  const { t } = useTranslation();
  const showAlert = useUi((s) => s.showAlert);
  const editor = useRef<HTMLDivElement>(null);
  const saved = useRef<Range | null>(null);
  const [hasText, setHasText] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const [preparing, setPreparing] = useState(false);
  /** Enter was pressed while the chat could not send yet: the text goes once it can (issue 13 §3.3). */
  const [queued, setQueued] = useState(false);
  /** Enter was pressed while sending is blocked until the user acts: why, where they look. */
  const [told, setTold] = useState<string | null>(null);
  /** The Templates menu (issue 22 §3) is open; `/` in an empty box opens it too. */
  const [templatesOpen, setTemplatesOpen] = useState(false);
  /** The Send later dialog is open with this text (issue 22 §2). */
  const [later, setLater] = useState<string | null>(null);
  /** What the status line says after a message was scheduled. */
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (autoFocus) editor.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (!tooLarge) return;
    const timer = window.setTimeout(() => setTooLarge(false), constants.chatImage.tooLargeNoticeMs);
    return () => window.clearTimeout(timer);
  }, [tooLarge]);

  const refresh = () => {
    const el = editor.current;
    const any = !!el && messageText(el.innerHTML).length > 0;
    // an emptied box may keep a stray <br>: clear it so the placeholder shows again
    if (el && !any && !el.textContent && el.querySelector('img') === null) el.innerHTML = '';
    setHasText(any);
  };

  const remember = () => {
    const sel = window.getSelection();
    if (sel?.rangeCount && editor.current?.contains(sel.anchorNode))
      saved.current = sel.getRangeAt(0).cloneRange();
  };

  const send = () => {
    const el = editor.current;
    if (!el) return;
    const text = messageText(el.innerHTML);
    if (!text) return;
    if (!canSend) {
      if (blockFinal) setTold(blockedHint ?? null);
      else setQueued(true);
      return;
    }
    setQueued(false);
    setTold(null);
    if (onSendText(text)) {
      el.innerHTML = '';
      saved.current = null;
      setHasText(false);
    }
  };

  // the chat became ready while a send waited: it goes now
  useEffect(() => {
    if (canSend && queued) send();
  });
  useEffect(() => setTold(null), [canSend, blockedHint]);

  const sendFile = async (file: File | undefined) => {
    if (!file || !canSend) return;
    setPreparing(true);
    try {
      // what the bytes are, not what the name says (issue 13 §3.5)
      const type = await checkPicture(file, acceptedImageTypes);
      if (!type) {
        showAlert(t('chats.input.notImage'));
        return;
      }
      const picked = type === file.type ? file : new File([file], file.name, { type });
      const prepared = await prepareImage(picked);
      if (prepared.kind === 'tooLarge') setTooLarge(true);
      else if (prepared.kind === 'failed') showAlert(t('chats.input.uploadFailed'));
      else await onSendImage(prepared);
    } finally {
      setPreparing(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === '/' && !e.nativeEvent.isComposing && !editor.current?.textContent) {
      e.preventDefault();
      setTemplatesOpen(true);
      return;
    }
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (e.shiftKey) {
      if (!document.execCommand('insertLineBreak')) insertText('\n');
      refresh();
      return;
    }
    send();
  };

  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    e.preventDefault();
    const text = e.clipboardData.getData('text/plain');
    if (text) insertText(text);
    refresh();
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) {
      void sendFile(file);
      return;
    }
    const text = e.dataTransfer.getData('text/plain');
    if (text) {
      editor.current?.focus();
      insertText(text);
      refresh();
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = editor.current;
    if (!el) return;
    let range = saved.current;
    if (!range || !el.contains(range.startContainer)) {
      range = document.createRange();
      range.selectNodeContents(el);
      range.collapse(false);
    }
    range.deleteContents();
    const node = document.createTextNode(emoji);
    range.insertNode(node);
    range.setStartAfter(node);
    range.collapse(true);
    saved.current = range.cloneRange();
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    refresh();
  };

  /** A saved reply chosen: its text goes in at the end of the box, which gets the focus back. */
  const insertTemplate = (text: string) => {
    const el = editor.current;
    if (!el) return;
    el.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    range.collapse(false);
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    insertText(text);
    refresh();
  };

  return (
    <div className="composer">
      {tooLarge && (
        <div className="composer-notice" role="alert">
          {t('chats.input.tooLarge')}
        </div>
      )}
      <div className="composer-tools">
        <TooltipTrigger delay={500}>
          <FileTrigger
            acceptedFileTypes={[...acceptedImageTypes]}
            onSelect={(files) => void sendFile(files ? Array.from(files)[0] : undefined)}
          >
            <Button
              className="icon-button composer-tool"
              aria-label={t('chats.input.image')}
              isDisabled={!canSend || preparing}
            >
              <ImageIcon />
            </Button>
          </FileTrigger>
          <Tooltip className="chat-tooltip" offset={6}>
            {t('chats.input.image')}
          </Tooltip>
        </TooltipTrigger>
        <EmojiPicker onPick={insertEmoji} />
        <TemplateMenu
          isOpen={templatesOpen}
          onOpenChange={(open) => {
            setTemplatesOpen(open);
            if (!open) editor.current?.focus();
          }}
          onPick={(text) => insertTemplate(text)}
        />
        {sendLater && (
          <Button
            className="button composer-later"
            onPress={() => {
              setNotice(null);
              setLater(messageText(editor.current?.innerHTML ?? ''));
            }}
            isDisabled={blockFinal || !hasText}
          >
            <ClockIcon />
            <span className="composer-later-text">{t('chats.input.sendLater')}</span>
          </Button>
        )}
      </div>
      <div className="composer-row">
        <div
          ref={editor}
          className="composer-input"
          contentEditable
          suppressContentEditableWarning
          role="textbox"
          aria-multiline="true"
          aria-label={t('chats.input.label')}
          aria-keyshortcuts="/ R"
          data-shortcut="composer"
          aria-placeholder={blockedHint ?? t('chats.input.placeholder')}
          data-placeholder={blockedHint ?? t('chats.input.placeholder')}
          data-empty={!hasText}
          spellCheck
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onDrop={onDrop}
          onInput={refresh}
          onKeyUp={remember}
          onMouseUp={remember}
          onBlur={remember}
          onFocus={onFocus}
        />
        {/* pressed while the chat cannot send yet, it does what Enter does: the text waits and goes
            once the chat is ready, or the user is told why (a button that turned disabled for the
            instant a new conversation's history started loading swallowed the click) */}
        <Button className="button primary composer-send" onPress={send} isDisabled={!hasText}>
          <SendIcon />
          {t('chats.input.send')}
        </Button>
      </div>
      <p className="composer-status" role="status" aria-live="polite">
        {queued ? t('chats.input.willSend') : (told ?? notice)}
      </p>
      {sendLater && (
        <SendLater
          isOpen={later !== null}
          onClose={() => {
            setLater(null);
            editor.current?.focus();
          }}
          fromNumber={sendLater.fromNumber}
          toNumber={sendLater.toNumber}
          initialText={later ?? ''}
          onDone={(at) => {
            setLater(null);
            const el = editor.current;
            if (el) el.innerHTML = '';
            saved.current = null;
            setHasText(false);
            setNotice(t('chats.input.scheduled', { when: shownTime(at) }));
            el?.focus();
          }}
        />
      )}
    </div>
  );
}
