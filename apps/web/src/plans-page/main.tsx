import '../lib/zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { brands } from '@numa/contract/brands';
import { applyBrandColors, watchTheme } from '../lib/theme';
import { page } from './params';
import { DemoBanner } from './DemoBanner';
import { PlansPage } from './PlansPage';
import './plans-page.css';

// brand colours as CSS variables and the theme (the client's choice, kept in this origin's storage),
// as the web client sets them
const root = document.documentElement;
applyBrandColors(brands[page.platform].colors, brands[page.platform].colorsDark);
watchTheme();
root.dataset.brand = page.platform;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DemoBanner />
    <PlansPage />
  </StrictMode>,
);
