import './lib/zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { brand } from './lib/config';
import { i18nReady } from './lib/i18n';
import { redirectMobile } from './lib/mobile';
import { App } from './app/App';
import './styles.css';

/** Brand colours as CSS variables; everything else reads them. */
function applyBrand() {
  const root = document.documentElement;
  for (const [k, v] of Object.entries(brand.colors))
    root.style.setProperty(`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, v);
  root.dataset.brand = brand.id;
}

if (!redirectMobile()) {
  applyBrand();
  // a page that starts in Chinese first fetches its texts (lib/i18n.ts)
  void i18nReady.then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
