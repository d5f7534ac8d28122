import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../lib/errors';

/**
 * Where webhooks may go (issue 21, no server-side request forgery). Production: https only, and every
 * address the name resolves to must be a public unicast address (no loopback, private, link-local,
 * unique-local, carrier-grade NAT, multicast, reserved or unspecified address, nor an IPv4 one mapped
 * into IPv6). Development allows http and any address, so tests and local receivers work.
 */
export interface UrlPolicy {
  requireHttps: boolean;
  allowPrivate: boolean;
  /** Resolves a name to all its addresses (default: the system resolver; tests give their own). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** A URL the policy refuses, with why (said to the endpoint's owner). */
export class UrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefused';
  }
}

/** A checked target: the URL and the one address the connection goes to. */
export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

const systemResolve = async (host: string) => dnsLookup(host, { all: true, verbatim: true });

/** Whether an address is one anyone on the internet could reach (public unicast). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

/**
 * Checks a URL against the policy and resolves its host once: every address must pass (a name with
 * one private address among public ones is refused), and the connection later goes to the checked
 * address itself (`post` gives it to the socket), so a second resolution cannot swap in another one
 * (DNS rebinding).
 */
export async function resolveTarget(raw: string, policy: UrlPolicy): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UrlRefused('only http(s) URLs');
  if (policy.requireHttps && url.protocol !== 'https:') throw new UrlRefused('the URL must be https');
  if (url.username || url.password) throw new UrlRefused('no credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      throw new UrlRefused(`${host} does not resolve`);
    }
  }
  if (!addresses.length) throw new UrlRefused(`${host} does not resolve`);
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new UrlRefused(`${host} resolves to a private or reserved address (${bad.address})`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The outcome of one try: the HTTP status, or why there was none. */
/** A URL a user saves (a webhook endpoint, a push endpoint) checked by the policy: 100001 on `field` when refused. */
export async function checkUserUrl(url: string, policy: UrlPolicy, field: string): Promise<void> {
  try {
    await resolveTarget(url, policy);
  } catch (err) {
    if (err instanceof UrlRefused)
      throw new ApiError(
        100001,
        { issues: [{ path: field, message: err.message }] },
        `${field}: ${err.message}`,
      );
    throw err;
  }
}

export type TryOutcome = { status: number; body: string } | { status: null; error: string };

/**
 * POSTs `body` to a checked target: the socket connects to `target.address` (the name is not resolved
 * again), TLS checks the certificate for the URL's host name, redirects are not followed, at most
 * 2 KiB of the answer is read.
 */
export function post(
  target: Target,
  body: string | Buffer,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<TryOutcome> {
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else cb(null, target.address, target.family);
  };
  const lib = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: TryOutcome) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
    const req = lib.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 2048) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 2048) }),
        );
        res.on('error', (err) => done({ status: null, error: err.message }));
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer in ${timeoutMs} ms`));
    });
    req.on('error', (err) => done({ status: null, error: err.message }));
    req.end(body);
  });
}
