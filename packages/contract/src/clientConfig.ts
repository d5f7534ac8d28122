import type { BrandId } from './common';

/**
 * What the server writes into every page it serves for the page's host (the web client's index.html
 * and the embedded plans page, as `window.__NUMA__`, with the page's CSP hash). Not an HTTP call: the
 * page reads it before its first request, so nothing waits on it. Beyond the spec; decided here so
 * the server and the client agree on one shape.
 */
export interface ClientConfig {
  brand: BrandId;
  /** Where the main brand sends phones ('' for no redirect). */
  mobileSiteUrl: string;
  /** The applist front page's Next: our public page of an app and country (`{app}`, `{country}` filled in). */
  codesPublicPageUrl?: string;
  /** A development start (simulators, the /dev routes). */
  dev: boolean;
  /**
   * A deliberate demo deployment (`DEMO_MODE=1`, issue 18): simulated providers may run and no real
   * money moves, so every page shows the "Demo: no real money" banner. Absent or false elsewhere.
   */
  demo?: boolean;
}
