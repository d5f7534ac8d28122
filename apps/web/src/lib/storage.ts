/**
 * localStorage that never throws: private modes and full quotas degrade to memory. On a quota error
 * the store is cleared (spec 000 §8) and the caller is told, so it can alert.
 */
const memory = new Map<string, string>();
let quotaListener: (() => void) | null = null;

export const onQuotaExceeded = (fn: () => void) => {
  quotaListener = fn;
};

export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return memory.get(key) ?? null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch (err) {
      memory.set(key, value);
      if (err instanceof DOMException && (err.name === 'QuotaExceededError' || err.code === 22)) {
        try {
          window.localStorage.clear();
          window.localStorage.setItem(key, value);
        } catch {
          /* memory only */
        }
        quotaListener?.();
      }
    }
  },
  remove(key: string): void {
    memory.delete(key);
    try {
      window.localStorage.removeItem(key);
    } catch {
      /* nothing stored */
    }
  },
};

export const keys = {
  token: 'numa.token',
  /** When the token was issued or last refreshed (epoch ms). */
  tokenAt: 'numa.token.at',
  flags: 'numa.flags',
  lang: 'numa.lang',
  tips: 'numa.tips',
  mobileNoticeDismissed: 'numa.mobileNotice',
} as const;
