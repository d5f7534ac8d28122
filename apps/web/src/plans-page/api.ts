import type { EndpointDef, InputOf, OutputOf } from '@numa/contract';
import { page } from './params';

/** A call that did not succeed: its retcode (-1: the network failed) and the server's message. */
export class PageError extends Error {
  constructor(
    readonly retcode: number,
    readonly retmsg: string,
    readonly status = 0,
  ) {
    super(retmsg || `retcode ${retcode}`);
  }
  /** HTTP 401 carries the session codes (DESIGN.md): the token was refused, the host must sign in again. */
  get sessionEnded() {
    return this.status === 401;
  }
}

/**
 * The page's one API client: the common query (t, webVersion, languagecode), the platform in bodies,
 * the access token it was given as `auth-token`; the answer is checked against the contract.
 */
export async function call<E extends EndpointDef>(ep: E, input: InputOf<E>): Promise<OutputOf<E>> {
  const query = new URLSearchParams({
    t: String(Date.now()),
    webVersion: 'plans',
    languagecode: page.languagecode,
  });
  const get = ep.method === 'GET' || ep.method === 'DELETE';
  if (get)
    for (const [k, v] of Object.entries(input as Record<string, unknown>))
      if (v !== undefined) query.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(`${ep.path}?${query}`, {
      method: ep.method,
      headers: {
        'auth-token': page.token,
        ...(get ? {} : { 'content-type': 'application/json' }),
      },
      ...(get ? {} : { body: JSON.stringify({ ...(input as object), platform: page.platform }) }),
    });
  } catch {
    throw new PageError(-1, '');
  }
  const body = (await res.json().catch(() => null)) as {
    retcode: number;
    retmsg: string;
    data: unknown;
  } | null;
  if (!body) throw new PageError(-1, '');
  if (body.retcode !== 0) throw new PageError(body.retcode, body.retmsg, res.status);
  return ep.output.parse(body.data) as OutputOf<E>;
}
