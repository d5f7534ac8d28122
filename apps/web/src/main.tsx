import './lib/zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { brand, config } from './lib/config';
import { i18nReady } from './lib/i18n';
import { redirectMobile } from './lib/mobile';
import { applyBrandColors, watchTheme } from './lib/theme';
import { App } from './app/App';
import { preloadFirstScreen } from './app/firstScreen';
import './styles.css';

/** Brand colours as CSS variables (both themes); everything else reads them. */
function applyBrand() {
  const root = document.documentElement;
  applyBrandColors(brand.colors, brand.colorsDark);
  // the theme index.html's boot script set, followed from now on (lib/theme.ts)
  watchTheme();
  root.dataset.brand = brand.id;
  // a demo deployment: the page makes room for its banner above every screen (styles.css)
  if (config.demo) root.dataset.demo = '';
}

if (!redirectMobile()) {
  applyBrand();
  // a page that starts in Chinese first fetches its texts (lib/i18n.ts)
  void i18nReady.then(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
    // once the first frame (the loading state) is up, a signed-in page's screen is fetched beside
    // the shell (app/firstScreen.ts); started before it, it would hold that first paint back
    requestAnimationFrame(() => setTimeout(preloadFirstScreen, 0));
  });
  // the service worker (issue 23), once the page has loaded; what watches it for a new build and
  // for notification clicks is a chunk of its own, loaded only on a page the worker controls (a
  // first visit has no old build to replace), so a first load fetches nothing more
  const startWorker = () => {
    if (import.meta.env.DEV || !navigator.serviceWorker) return;
    void navigator.serviceWorker.register('/sw.js').then(
      (reg) => {
        if (navigator.serviceWorker.controller) void import('./lib/pwa').then((m) => m.watchWorker(reg));
      },
      () => {},
    );
  };
  if (document.readyState === 'complete') startWorker();
  else window.addEventListener('load', startWorker, { once: true });
}
