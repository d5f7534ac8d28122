import {
  isSessionCode,
  isSilent,
  sessionCodes,
  type EndpointDef,
  type InputOf,
  type OutputOf,
} from '@numa/contract';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { brand, webVersion } from './config';
import { currentLanguageCode, i18n, retcodeText } from './i18n';

/** A call that did not succeed: its retcode (or -1 when the network failed) and the message to show. */
export class ApiError extends Error {
  constructor(
    readonly retcode: number,
    readonly retmsg: string,
    readonly data: unknown = null,
    readonly status = 0,
  ) {
    super(retmsg || `retcode ${retcode}`);
    this.name = 'ApiError';
  }
}
export const NETWORK_FAILURE = -1;
export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

export interface CallOptions {
  /** The caller shows the failure itself: no global alert even for non-silent codes. */
  silent?: boolean;
  signal?: AbortSignal;
}

/**
 * What every failure does before the caller sees it (spec 000 §4, §8; spec 001 §8): session codes log
 * out or mark kicked (ignored on the front page); other codes alert unless silent or a captcha modal
 * is open.
 */
function handleFailure(code: number, message: string, opts: CallOptions) {
  const ui = useUi.getState();
  const session = useSession.getState();
  if (isSessionCode(code)) {
    if (ui.frontPage || !session.token) return;
    if (sessionCodes[code] === 'markKicked') session.markKicked();
    else session.logout(code);
    // a kept token refused at once: signed out quietly (stores/session.ts `confirmed`)
    if (session.confirmed || sessionCodes[code] === 'markKicked') useUi.getState().showAlert(message);
    return;
  }
  if (opts.silent || isSilent(code) || ui.captchaOpen) return;
  ui.showAlert(message);
}

const retcodeListeners = new Map<number, Set<(data: unknown) => void>>();
/**
 * What a retcode does wherever it comes from, besides the caller's own handling (spec 000 §8:
 * 100025 opens the verify modal in update mode). Returns the unsubscribe.
 */
export function onRetcode(code: number, fn: (data: unknown) => void): () => void {
  const set = retcodeListeners.get(code) ?? new Set();
  set.add(fn);
  retcodeListeners.set(code, set);
  return () => set.delete(fn);
}

function query(input: Record<string, unknown> | undefined): URLSearchParams {
  const params = new URLSearchParams({
    t: String(Date.now()),
    webVersion,
    languagecode: currentLanguageCode(),
  });
  for (const [k, v] of Object.entries(input ?? {})) {
    if (v === undefined || v === null) continue;
    params.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return params;
}

async function send<E extends EndpointDef>(
  ep: E,
  init: RequestInit,
  url: string,
  opts: CallOptions,
): Promise<OutputOf<E>> {
  const token = useSession.getState().token;
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      headers: { ...(init.headers ?? {}), ...(token ? { 'auth-token': token } : {}) },
      signal: opts.signal ?? null,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    const e = new ApiError(NETWORK_FAILURE, i18n.t('errors.network'));
    if (!opts.silent && !useUi.getState().captchaOpen) useUi.getState().showAlert(e.retmsg);
    throw e;
  }
  let json: { retcode?: unknown; retmsg?: unknown; data?: unknown };
  try {
    json = (await res.json()) as typeof json;
  } catch {
    const e = new ApiError(100000, retcodeText(100000), null, res.status);
    handleFailure(e.retcode, e.retmsg, opts);
    throw e;
  }
  const code = typeof json.retcode === 'number' ? json.retcode : 100000;
  if (code === 0 && token && useSession.getState().token === token) useSession.getState().confirm();
  if (code !== 0) {
    const message = typeof json.retmsg === 'string' && json.retmsg ? json.retmsg : retcodeText(code);
    handleFailure(code, message, opts);
    if (!useUi.getState().frontPage) retcodeListeners.get(code)?.forEach((fn) => fn(json.data ?? null));
    throw new ApiError(code, message, json.data ?? null, res.status);
  }
  // Every server answer is checked against the contract before the UI uses it.
  const parsed = ep.output.safeParse(json.data);
  if (!parsed.success) {
    console.error(`response of ${ep.name} breaks the contract`, parsed.error.issues);
    throw new ApiError(100000, retcodeText(100000));
  }
  return parsed.data as OutputOf<E>;
}

/** Calls an endpoint of the contract: the common query, the platform in bodies, the token header. */
export function call<E extends EndpointDef>(
  ep: E,
  input: InputOf<E>,
  opts: CallOptions = {},
): Promise<OutputOf<E>> {
  const isBody = ep.method === 'POST' || ep.method === 'PUT';
  const params = query(isBody ? undefined : (input as Record<string, unknown>));
  const init: RequestInit = isBody
    ? {
        method: ep.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...(input as object), platform: brand.id }),
      }
    : { method: ep.method };
  return send(ep, init, `${ep.path}?${params}`, opts);
}

/** A multipart call (files): the form gets the platform; the common query is added. */
export function callMultipart<E extends EndpointDef>(
  ep: E,
  form: FormData,
  opts: CallOptions = {},
): Promise<OutputOf<E>> {
  form.set('platform', brand.id);
  return send(ep, { method: ep.method, body: form }, `${ep.path}?${query(undefined)}`, opts);
}
