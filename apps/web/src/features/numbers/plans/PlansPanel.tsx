import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import {
  PlansPageMessage,
  plansMessageSource,
  plansPagePath,
  type PlansHeaderButton,
  type PlansHostMessage,
} from '@numa/contract/plansFrame';
import { Loading } from '../../../components/Spinner';
import { brand } from '../../../lib/config';
import { currentLanguageCode } from '../../../lib/i18n';
import { queryKeys } from '../../../lib/queryKeys';
import { useSession } from '../../../stores/session';
import { useAccountInfo } from '../../../shared/api/account';
import { openVerify } from '../../../shared/dialogs/verify';
import { rechargeFromPlans, takePlansStart } from './store';
import './plans.css';

type Outgoing = PlansHostMessage extends infer M ? (M extends unknown ? Omit<M, 'source'> : never) : never;

/**
 * The embedded plans panel (spec 001 §2 "Embedded plans page"): our plans page (served at /plans/ by
 * this server) in a frame, with the header it drives — a title, a back button and the buttons its
 * inner page asks for — and the answers it needs: header clicks, the language, Recharge with a way
 * back, and the phone verify flow. Messages are taken only from the frame's window and origin.
 */
export default function PlansPanel({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const token = useSession((s) => s.token);
  const info = useAccountInfo();
  const frame = useRef<HTMLIFrameElement>(null);
  const [start] = useState(() => takePlansStart(plansPagePath));
  const [header, setHeader] = useState<{ title: string; back: boolean; buttons: PlansHeaderButton[] }>({
    title: '',
    back: false,
    buttons: [],
  });
  const settled = !info.isPending;

  // the page's address: its path (or the way back from Recharge) and the query values the spec names;
  // built once the account is read, so a language change goes by message instead of a reload
  const src = useMemo(() => {
    if (!settled) return null;
    const u = new URL(start, window.location.origin);
    u.searchParams.set('platform', brand.id);
    u.searchParams.set('osType', 'pc');
    u.searchParams.set('languagecode', currentLanguageCode());
    u.searchParams.set('token', token ?? '');
    if (info.data?.phone) u.searchParams.set('phone', `${info.data.telCode}${info.data.phone}`);
    if (info.data?.email) u.searchParams.set('email', info.data.email);
    return u.pathname + u.search;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- built once per token
  }, [settled, start, token]);

  const post = (m: Outgoing) =>
    frame.current?.contentWindow?.postMessage({ source: plansMessageSource, ...m }, window.location.origin);

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || !frame.current || e.source !== frame.current.contentWindow)
        return;
      const parsed = PlansPageMessage.safeParse(e.data);
      if (!parsed.success) return;
      const m = parsed.data;
      if (m.type === 'pageChange') setHeader({ title: m.title, back: m.back, buttons: m.buttons });
      else if (m.type === 'language') post({ type: 'language', languagecode: currentLanguageCode() });
      else if (m.type === 'recharge') rechargeFromPlans(m.returnUrl);
      else
        openVerify('update2', {
          onDone: () =>
            void qc.fetchQuery({ queryKey: queryKeys.account.info(), staleTime: 0 }).then(
              (a) => {
                const acc = a as { telCode: string; phone: string };
                post({ type: 'phone', phone: acc.phone ? `${acc.telCode}${acc.phone}` : null });
              },
              () => post({ type: 'phone', phone: null }),
            ),
        });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [qc]);

  // the host's language changes reach the page as they happen
  useEffect(() => {
    post({ type: 'language', languagecode: currentLanguageCode() });
  }, [i18n.language]);

  const title = header.title || t('plans.frameTitle');
  return (
    <section className="plans-host" aria-labelledby="plans-host-title">
      <header className="plans-host-header">
        <Button
          className="icon-button plans-host-back"
          aria-label={t('plans.back')}
          onPress={() => (header.back ? post({ type: 'header', button: 'back' }) : onClose())}
        >
          <span aria-hidden="true">‹</span>
        </Button>
        <h2 id="plans-host-title">{title}</h2>
        {header.buttons.length > 0 && (
          <div className="plans-host-actions" role="group" aria-label={t('plans.headerActions')}>
            {header.buttons.map((b) => (
              <Button key={b} className="button" onPress={() => post({ type: 'header', button: b })}>
                {t(`plans.buttons.${b}`)}
              </Button>
            ))}
          </div>
        )}
      </header>
      {src ? (
        <iframe ref={frame} className="plans-frame" title={t('plans.frameTitle')} src={src} />
      ) : (
        <Loading label={t('app.loading')} />
      )}
    </section>
  );
}
