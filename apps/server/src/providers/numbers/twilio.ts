import type { FastifyBaseLogger } from 'fastify';
import { parsePhone } from '@numa/contract';
import { twilioBasicAuth, twilioPaths } from '../carrier/twilio';
import { SupplyUnavailableError, type NumberQuery, type NumberSupplyPort, type SupplyNumber } from './port';

export interface TwilioNumberConfig {
  accountSid: string;
  authToken: string;
  /** Public base URL of this server: the webhooks set on every number bought. */
  webhookBaseUrl: string;
  /** https://api.twilio.com, or a local fake in tests. */
  apiBaseUrl: string;
  /** Regulatory address / bundle some countries need on a purchase (GB, AU). */
  addressSid?: string | undefined;
  bundleSid?: string | undefined;
}

/** One entry of an AvailablePhoneNumbers list (Twilio's fields we read). */
interface AvailableNumber {
  phone_number?: string;
  iso_country?: string;
  capabilities?: Record<string, boolean>;
}

interface TwilioErrorBody {
  code?: number;
  message?: string;
  status?: number;
}

/** Twilio's code for "the number you asked to buy is not available" (someone else bought it). */
const notAvailable = 21422;

/** Our New-number country and kind → Twilio's country and AvailablePhoneNumbers subresource. */
function resource(q: NumberQuery): { country: string; kind: 'Local' | 'TollFree' | 'Mobile' } | null {
  if ((q.code === 'US' || q.code === 'CA') && q.type === 'local') return { country: q.code, kind: 'Local' };
  if (q.code === 'TollFree' && q.type === 'tollFree') return { country: 'US', kind: 'TollFree' };
  if ((q.code === 'GB' || q.code === 'AU') && q.type === 'mobile') return { country: q.code, kind: 'Mobile' };
  return null;
}

/**
 * The Twilio number supply (NUMBER_SUPPLY=twilio): the AvailablePhoneNumbers search (Local, TollFree
 * or Mobile of a country, by area code where the country has them; numbers that take SMS and voice),
 * buying a number on the IncomingPhoneNumbers resource with our SMS, voice and call-status webhooks
 * set, and releasing it (DELETE). Buying is idempotent: a number Twilio says is not available that
 * already is in our account counts as bought (a retried or concurrent subscribe); releasing a number
 * no longer in our account is done.
 */
export class TwilioNumberSupply implements NumberSupplyPort {
  readonly name = 'twilio';
  private readonly api: string;
  private readonly base: string;

  constructor(
    readonly config: TwilioNumberConfig,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.api = `${config.apiBaseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${config.accountSid}`;
    this.base = config.webhookBaseUrl.replace(/\/+$/, '');
  }

  /** One REST call; network failures, outages and unexpected answers are SupplyUnavailableError. */
  private async rest(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    form?: URLSearchParams,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    let res: Response;
    try {
      res = await fetch(`${this.api}${path}`, {
        method,
        headers: {
          authorization: twilioBasicAuth(this.config.accountSid, this.config.authToken),
          accept: 'application/json',
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: form.toString() } : {}),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new SupplyUnavailableError(`Twilio unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    let body: Record<string, unknown>;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    return { status: res.status, body };
  }

  private fail(what: string, r: { status: number; body: TwilioErrorBody }): never {
    throw new SupplyUnavailableError(
      `Twilio ${what}: HTTP ${r.status}${r.body.code ? ` error ${r.body.code}` : ''} ${r.body.message ?? ''}`.trim(),
    );
  }

  /** The AvailablePhoneNumbers list for a query, with extra filters (Contains). */
  private async available(q: NumberQuery, limit: number, extra: Record<string, string> = {}) {
    const r = resource(q);
    if (!r) return [];
    const params = new URLSearchParams({
      SmsEnabled: 'true',
      VoiceEnabled: 'true',
      PageSize: String(Math.max(1, Math.min(limit, 50))),
      ...(q.areaCode && r.kind !== 'Mobile' ? { AreaCode: q.areaCode } : {}),
      ...extra,
    });
    const res = await this.rest('GET', `/AvailablePhoneNumbers/${r.country}/${r.kind}.json?${params}`);
    // Twilio answers 404 for a country / type it has no inventory resource for: nothing to offer
    if (res.status === 404) return [];
    if (res.status !== 200 || !Array.isArray(res.body.available_phone_numbers))
      this.fail('number search', res as { status: number; body: TwilioErrorBody });
    const telCode = r.country === 'GB' ? '44' : r.country === 'AU' ? '61' : '1';
    const out: SupplyNumber[] = [];
    for (const a of res.body.available_phone_numbers as AvailableNumber[]) {
      const full = (a.phone_number ?? '').replace(/\D/g, '');
      if (!full.startsWith(telCode)) continue;
      const caps = Object.fromEntries(
        Object.entries(a.capabilities ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
      );
      if (caps.sms === false || caps.voice === false) continue;
      const phone = full.slice(telCode.length);
      // the area asked for, and a number our phone rules take (the chat needs it valid)
      if (q.areaCode && r.kind !== 'Mobile' && !phone.startsWith(q.areaCode)) continue;
      if (!parsePhone(full)?.isValid()) continue;
      out.push({ telCode, phone, full });
    }
    return out;
  }

  search(q: NumberQuery, limit: number): Promise<SupplyNumber[]> {
    return this.available(q, limit);
  }

  /** Whether Twilio still offers exactly this number (a Contains search anchored at its start). */
  async offers(q: NumberQuery, full: string): Promise<boolean> {
    const found = await this.available(q, 5, { Contains: `+${full}` });
    return found.some((n) => n.full === full);
  }

  /** Our IncomingPhoneNumber of a number, if the account holds it. */
  private async owned(full: string): Promise<{ sid: string } | null> {
    const res = await this.rest(
      'GET',
      `/IncomingPhoneNumbers.json?${new URLSearchParams({ PhoneNumber: `+${full}` })}`,
    );
    if (res.status !== 200 || !Array.isArray(res.body.incoming_phone_numbers))
      this.fail('number lookup', res as { status: number; body: TwilioErrorBody });
    const hit = (res.body.incoming_phone_numbers as { sid?: string; phone_number?: string }[]).find(
      (n) => n.phone_number === `+${full}` && typeof n.sid === 'string',
    );
    return hit ? { sid: hit.sid! } : null;
  }

  async acquire(n: SupplyNumber): Promise<void> {
    const form = new URLSearchParams({
      PhoneNumber: `+${n.full}`,
      SmsUrl: `${this.base}${twilioPaths.inbound}`,
      SmsMethod: 'POST',
      VoiceUrl: `${this.base}${twilioPaths.voice}`,
      VoiceMethod: 'POST',
      StatusCallback: `${this.base}${twilioPaths.callStatus}`,
      StatusCallbackMethod: 'POST',
    });
    if (this.config.addressSid) form.set('AddressSid', this.config.addressSid);
    if (this.config.bundleSid) form.set('BundleSid', this.config.bundleSid);
    const res = await this.rest('POST', '/IncomingPhoneNumbers.json', form);
    if (res.status === 201 || res.status === 200) {
      this.log?.info({ number: n.full, sid: res.body.sid }, 'twilio: number bought');
      return;
    }
    if ((res.body as TwilioErrorBody).code === notAvailable && (await this.owned(n.full))) return;
    this.fail(`buying +${n.full}`, res as { status: number; body: TwilioErrorBody });
  }

  async release(n: SupplyNumber): Promise<void> {
    const mine = await this.owned(n.full);
    if (!mine) return;
    const res = await this.rest('DELETE', `/IncomingPhoneNumbers/${mine.sid}.json`);
    if (res.status === 204 || res.status === 404) {
      this.log?.info({ number: n.full, sid: mine.sid }, 'twilio: number released');
      return;
    }
    this.fail(`releasing +${n.full}`, res as { status: number; body: TwilioErrorBody });
  }
}
