import { brand, config } from './config';

export const isMobileBrowser = (ua = navigator.userAgent) =>
  /Android|iPhone|iPod|iPad|Mobile|Windows Phone|HarmonyOS/i.test(ua);

/** The main brand sends mobile browsers to its mobile site (spec 000 §2); returns true when leaving. */
export function redirectMobile(): boolean {
  if (!brand.mobileRedirect || !config.mobileSiteUrl || !isMobileBrowser()) return false;
  if (new URLSearchParams(window.location.search).has('desktop')) return false;
  const target = new URL(config.mobileSiteUrl);
  target.search = window.location.search;
  window.location.replace(target.toString());
  return true;
}
