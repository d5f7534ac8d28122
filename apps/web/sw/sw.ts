/// <reference lib="webworker" />
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import type { PushPayload } from '@numa/contract/push';
import { notCaptured, openMessage } from '../src/lib/pwaPaths';

/*
 * The web client's service worker (issue 23 §2, §3), built by vite-plugin-pwa (injectManifest):
 *
 * - the hashed scripts and styles of the build are precached (Workbox), so a second visit takes
 *   them from the cache; a new build's worker waits until the page says to take over (the page
 *   offers "a new version is available, reload"), then drops the old build's caches;
 * - pages (navigations) go to the network first, and the last page answered is kept as the app
 *   shell for an offline visit (every client route answers the same page, with the brand's config
 *   in it), so offline the app starts and shows its offline state instead of the browser's error;
 * - nothing else is handled: API calls, the socket, media, /pay/* and the plans page go to the
 *   network as if there were no worker (their paths never reach a route here);
 * - a push (Web Push, encrypted by the server) is shown as it comes; a click focuses a window of
 *   the app and opens what it is about, or opens the app there.
 */

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

const shellKey = new URL('/__app-shell', self.location.origin).href;
registerRoute(
  new NavigationRoute(
    new NetworkFirst({
      cacheName: 'numa-shell',
      plugins: [{ cacheKeyWillBeUsed: async () => shellKey }],
    }),
    { denylist: notCaptured },
  ),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('push', (event) => {
  let data: PushPayload;
  try {
    data = event.data?.json() as PushPayload;
  } catch {
    return;
  }
  if (!data || typeof data.title !== 'string') return;
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body,
      tag: data.tag,
      lang: data.lang === 'zh' ? 'zh-CN' : 'en',
      icon: '/app-icon-192.png',
      data: { url: data.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/';
  const url = new URL(path.startsWith('/') ? path : '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        // the page moves to it without a reload (lib/pwa.ts listens)
        open.postMessage({ type: openMessage, url: path });
        await open.focus();
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
