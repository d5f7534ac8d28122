import { i18n } from './i18n';
import { openMessage } from './pwaPaths';
import { useUi } from '../stores/ui';

/*
 * The page's side of the service worker (issue 23 §2), once it controls the page (main.tsx registers
 * it after load and loads this chunk only then). A new build's worker waits; the page offers
 * "a new version is available, reload", and only when the user takes it does the new worker take
 * over and every open tab of the app reload together (no tab runs old scripts against the new
 * server). The check for a new build runs at start and whenever the page shows again.
 */

/** The window event a notification click becomes (the signed-in shell opens its path). */
export const openEvent = 'numa:open';

function offer(worker: ServiceWorker) {
  useUi.getState().showSnackbar({
    message: i18n.t('pwa.updateReady'),
    duration: 0,
    action: { label: i18n.t('pwa.reload'), onAction: () => worker.postMessage({ type: 'SKIP_WAITING' }) },
  });
}

/** Watches the registered worker: a new build waiting, notification clicks for this window. */
export function watchWorker(reg: ServiceWorkerRegistration) {
  const sw = navigator.serviceWorker;
  let reloading = false;
  // the new build took over (this tab's choice or another's): run its scripts, not these
  sw.addEventListener('controllerchange', () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
  sw.addEventListener('message', (e: MessageEvent<{ type?: string; url?: string }>) => {
    if (e.data?.type !== openMessage || typeof e.data.url !== 'string') return;
    window.dispatchEvent(new CustomEvent(openEvent, { detail: e.data.url }));
  });
  const watch = (w: ServiceWorker | null) =>
    w?.addEventListener('statechange', () => {
      if (w.state === 'installed' && sw.controller) offer(w);
    });
  if (reg.waiting && sw.controller) offer(reg.waiting);
  watch(reg.installing);
  reg.addEventListener('updatefound', () => watch(reg.installing));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    if (reg.waiting && sw.controller) offer(reg.waiting);
    else void reg.update().catch(() => {});
  });
  void reg.update().catch(() => {});
}
