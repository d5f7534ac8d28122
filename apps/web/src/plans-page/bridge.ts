import {
  PlansHostMessage,
  plansMessageSource,
  type PlansHeaderButton,
  type PlansPageMessage,
} from '@numa/contract/plansFrame';

/**
 * The page's side of the frame messages (contract plansFrame.ts). The page is served by the same
 * server as the web client that frames it, so the host's origin is this page's own origin: a message
 * goes only to that origin, and one is taken only from it and from the parent window.
 */
const hostOrigin = window.location.origin;
const framed = window.parent !== window;

type Outgoing =
  | { type: 'pageChange'; title: string; back: boolean; buttons: PlansHeaderButton[] }
  | { type: 'language' }
  | { type: 'recharge'; returnUrl: string }
  | { type: 'managePhone' };

export function sendToHost(msg: Outgoing) {
  if (!framed) return;
  const message: PlansPageMessage = { source: plansMessageSource, ...msg };
  window.parent.postMessage(message, hostOrigin);
}

export function onHostMessage(handler: (m: PlansHostMessage) => void): () => void {
  const listener = (e: MessageEvent) => {
    if (e.origin !== hostOrigin || e.source !== window.parent) return;
    const parsed = PlansHostMessage.safeParse(e.data);
    if (parsed.success) handler(parsed.data);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
