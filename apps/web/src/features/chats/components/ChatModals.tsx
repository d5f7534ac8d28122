import { Suspense } from 'react';
import { Button, Link } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';
import { brand } from '../../../lib/config';
import { lazyNamed } from '../../../components/lazy';
import { confirmSendCaptcha } from '../api/chats';
import { useContactName } from '../extensions';
import { formatFullNumber } from '../logic/number';
import type { ChatService } from '../state/service';
import { useChatsUi } from '../state/ui';
import { splitKey } from '../logic/ids';

// the captcha (drawing, solver) is fetched only when a send asks for it
const CaptchaModal = lazyNamed(() => import('../../../shared/captcha/CaptchaModal'), 'CaptchaModal');

function DeleteChat({ service, chatKey }: { service: ChatService; chatKey: string }) {
  const { t } = useTranslation();
  const setModal = useChatsUi((s) => s.setModal);
  const other = splitKey(chatKey).other;
  const name = useContactName(other) ?? formatFullNumber(other);
  const close = () => setModal(null);
  return (
    <Dialog
      isOpen
      onClose={close}
      role="alertdialog"
      width={400}
      title={t('chats.delete.title')}
      footer={
        <>
          <Button className="button" onPress={close} autoFocus>
            {t('app.cancel')}
          </Button>
          <Button
            className="button danger"
            onPress={() => {
              close();
              void service.deleteChat(chatKey);
            }}
          >
            {t('chats.delete.confirm')}
          </Button>
        </>
      }
    >
      <p>{t('chats.delete.message', { name })}</p>
    </Dialog>
  );
}

/** The toll-free registration prompt (spec 000 §8, 300030): the server's words and the brand's form. */
function TollFree({ message }: { message: string }) {
  const { t } = useTranslation();
  const setModal = useChatsUi((s) => s.setModal);
  const close = () => setModal(null);
  return (
    <Dialog
      isOpen
      onClose={close}
      role="alertdialog"
      width={420}
      title={t('chats.tollFree.title')}
      footer={
        <>
          <Button className="button" onPress={close}>
            {t('app.close')}
          </Button>
          <Link
            className="button primary"
            href={brand.tollFreeFormUrl}
            target="_blank"
            rel="noopener noreferrer"
            onPress={close}
            autoFocus
          >
            {t('chats.tollFree.register')}
          </Link>
        </>
      }
    >
      <p>{message}</p>
      <p className="muted">{t('chats.tollFree.explain')}</p>
    </Dialog>
  );
}

/**
 * The chat modals (spec 000 §2): delete confirmation, toll-free registration, and the captcha a send
 * may ask for (100010). Decided: once the captcha is solved, the refused message goes again as a new
 * message. The no-credit prompt is the shell's insufficient-balance dialog with its Recharge button.
 */
export function ChatModals({ service }: { service: ChatService }) {
  const modal = useChatsUi((s) => s.modal);
  const setModal = useChatsUi((s) => s.setModal);
  return (
    <>
      {modal?.kind === 'delete' && <DeleteChat service={service} chatKey={modal.key} />}
      {modal?.kind === 'tollFree' && <TollFree message={modal.message} />}
      {modal?.kind === 'captcha' && (
        <Suspense fallback={null}>
          <CaptchaModal
            isOpen
            onClose={() => setModal(null)}
            proofOfWork={false}
            onSubmit={async (captchaId, answer) => {
              await confirmSendCaptcha(captchaId, answer);
              service.retry(modal.key, modal.smsId);
              setModal(null);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
