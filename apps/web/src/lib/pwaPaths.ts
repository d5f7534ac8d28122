/**
 * Paths the service worker never answers (apps/web/sw/sw.ts): the server's own (API calls, the
 * socket, media, developer tools, the operator's and carriers' hooks), the payment pages and the
 * embedded plans page. Shared with the page so both say the same.
 */
export const notCaptured: RegExp[] = [
  /^\/web\//,
  /^\/webchat/,
  /^\/api\//,
  /^\/dev\//,
  /^\/media\//,
  /^\/pay\//,
  /^\/plans\//,
  /^\/carrier\//,
  /^\/stubs\//,
  /^\/metrics/,
  /^\/healthz/,
  /^\/docs/,
];

/** The message the service worker sends a window to open a notification's path. */
export const openMessage = 'numa:open';
