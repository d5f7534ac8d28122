import '../lib/zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { brands } from '@numa/contract/brands';
import { page } from './params';
import { DemoBanner } from './DemoBanner';
import { PlansPage } from './PlansPage';
import './plans-page.css';

// brand colours as CSS variables, as the web client sets them
const root = document.documentElement;
for (const [k, v] of Object.entries(brands[page.platform].colors))
  root.style.setProperty(`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, v);
root.dataset.brand = page.platform;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DemoBanner />
    <PlansPage />
  </StrictMode>,
);
