import { publicCodePath } from '../../lib/config';

const key = 'numa.codes.intent';

export interface CodeIntent {
  app: string;
  country: string;
  number?: string;
}

/** The public code page remembers what the visitor wanted before the login (this tab only). */
export function saveCodeIntent(i: CodeIntent) {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(i));
  } catch {
    // storage refused: the verification page opens on its defaults
  }
}

/**
 * What the verification page opens on: the remembered intent, or the public page's path a signed-in
 * visitor opened (`/receive/<app>/<country>`). Read during render, it is only looked at: a render
 * React throws away (a lazy part suspending) reads it again; the mounted page forgets it
 * (`forgetCodeIntent`), so it applies once.
 */
export function peekCodeIntent(): CodeIntent | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (raw) {
      const v = JSON.parse(raw) as Partial<CodeIntent>;
      if (typeof v.app === 'string' && typeof v.country === 'string')
        return {
          app: v.app,
          country: v.country,
          ...(typeof v.number === 'string' ? { number: v.number } : {}),
        };
    }
  } catch {
    // nothing remembered
  }
  return publicCodePath(window.location.pathname);
}

/** The verification page has opened on the intent: later visits open on their defaults. */
export function forgetCodeIntent() {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // nothing to forget
  }
}
