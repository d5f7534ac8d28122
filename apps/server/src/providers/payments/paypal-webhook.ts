import { X509Certificate, verify as verifySignature } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { crc32 } from 'node:zlib';
import type { Clock } from '../../lib/clock';
import { ForgedNotification, ProviderUnavailable, type IncomingWebhook } from './port';

/**
 * PayPal's webhook signature, verified offline as PayPal documents it ("Integrate webhooks",
 * self-verification): the signed message is `<transmission id>|<transmission time>|<webhook id>|<CRC32
 * of the raw body, unsigned decimal>`, signed SHA256withRSA with the key of the certificate at
 * `PAYPAL-CERT-URL`. Before its key is used, the certificate must come from PayPal's API host over
 * HTTPS, be current, name PayPal's message-verification host (the rule PayPal's own Java SDK applied),
 * and chain to a root this process trusts (Node's bundled roots). Why offline rather than PayPal's
 * verify-webhook-signature call: see docs/decisions.md.
 */
export interface CertPolicy {
  /** Whether a certificate may be fetched from this URL at all. */
  allowUrl(url: URL): boolean;
  /** PEM roots the certificate's chain must end at. */
  roots: readonly string[];
}

/** PayPal's API hosts that serve webhook certificates (live and sandbox). */
const paypalCertHosts = new Set([
  'api.paypal.com',
  'api-m.paypal.com',
  'api.sandbox.paypal.com',
  'api-m.sandbox.paypal.com',
]);

export const paypalCertPolicy: CertPolicy = {
  allowUrl: (u) =>
    u.protocol === 'https:' &&
    paypalCertHosts.has(u.hostname) &&
    u.port === '' &&
    !u.username &&
    !u.password &&
    !u.search &&
    u.pathname.startsWith('/v1/notifications/certs/'),
  roots: rootCertificates,
};

/** The leaf's subject: CN=messageverificationcerts(.sandbox).paypal.com. */
const signingCn = /^CN=messageverificationcerts(\.sandbox)?\.paypal\.com$/;

const header = (w: IncomingWebhook, name: string): string | undefined => {
  const v = w.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
};

/** The message PayPal signs for a delivery (exported for tests, which sign fixtures with it). */
export function paypalSignedMessage(
  transmissionId: string,
  transmissionTime: string,
  webhookId: string,
  rawBody: string,
): string {
  return `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(Buffer.from(rawBody, 'utf8')) >>> 0}`;
}

const pemBlocks = (pem: string) =>
  pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

interface TrustedKey {
  key: X509Certificate['publicKey'];
  notBefore: number;
  notAfter: number;
}

export class PaypalWebhookVerifier {
  /** Verified certificates by URL (PayPal rotates them rarely; a handful per deployment). */
  private readonly keys = new Map<string, TrustedKey>();
  private readonly roots: X509Certificate[];

  constructor(
    private readonly webhookId: string,
    private readonly clock: Clock,
    private readonly policy: CertPolicy = paypalCertPolicy,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.roots = policy.roots.map((r) => new X509Certificate(r));
  }

  /** Throws ForgedNotification unless PayPal signed this delivery for our webhook. */
  async verify(w: IncomingWebhook): Promise<void> {
    const id = header(w, 'paypal-transmission-id');
    const time = header(w, 'paypal-transmission-time');
    const sig = header(w, 'paypal-transmission-sig');
    const certUrl = header(w, 'paypal-cert-url');
    const algo = header(w, 'paypal-auth-algo');
    if (!id || !time || !sig || !certUrl || !algo)
      throw new ForgedNotification('PayPal signature headers missing');
    if (algo !== 'SHA256withRSA') throw new ForgedNotification(`unsupported auth algo ${algo.slice(0, 40)}`);
    let url: URL;
    try {
      url = new URL(certUrl);
    } catch {
      throw new ForgedNotification('bad cert URL');
    }
    if (!this.policy.allowUrl(url)) throw new ForgedNotification('cert URL is not PayPal’s');
    const key = await this.keyAt(url);
    const now = this.clock.now();
    if (now < key.notBefore || now > key.notAfter) {
      this.keys.delete(url.href);
      throw new ForgedNotification('PayPal certificate not current');
    }
    const ok = verifySignature(
      'RSA-SHA256',
      Buffer.from(paypalSignedMessage(id, time, this.webhookId, w.rawBody), 'utf8'),
      key.key,
      Buffer.from(sig, 'base64'),
    );
    if (!ok) throw new ForgedNotification('bad PayPal signature');
  }

  private async keyAt(url: URL): Promise<TrustedKey> {
    const known = this.keys.get(url.href);
    if (known) return known;
    let pem: string;
    try {
      const res = await this.fetchImpl(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      pem = await res.text();
    } catch (err) {
      // PayPal retries an undelivered event: a 5xx asks it to
      throw new ProviderUnavailable(`PayPal certificate unreachable: ${(err as Error).message}`);
    }
    if (pem.length > 64 * 1024) throw new ForgedNotification('certificate too large');
    const chain = pemBlocks(pem).map((b) => new X509Certificate(b));
    const leaf = chain[0];
    if (!leaf) throw new ForgedNotification('no certificate at the cert URL');
    if (!leaf.subject.split('\n').some((rdn) => signingCn.test(rdn)))
      throw new ForgedNotification('certificate is not PayPal’s message-verification certificate');
    const now = this.clock.now();
    for (const c of chain)
      if (now < Date.parse(c.validFrom) || now > Date.parse(c.validTo))
        throw new ForgedNotification('certificate chain not current');
    for (let i = 0; i + 1 < chain.length; i++)
      if (
        !chain[i + 1]!.ca ||
        !chain[i]!.checkIssued(chain[i + 1]!) ||
        !chain[i]!.verify(chain[i + 1]!.publicKey)
      )
        throw new ForgedNotification('certificate chain broken');
    const top = chain[chain.length - 1]!;
    const anchored = this.roots.some(
      (r) =>
        r.fingerprint256 === top.fingerprint256 || (r.ca && top.checkIssued(r) && top.verify(r.publicKey)),
    );
    if (!anchored) throw new ForgedNotification('certificate does not chain to a trusted root');
    const key = {
      key: leaf.publicKey,
      notBefore: Date.parse(leaf.validFrom),
      notAfter: Date.parse(leaf.validTo),
    };
    if (this.keys.size >= 32) this.keys.clear();
    this.keys.set(url.href, key);
    return key;
  }
}
