declare const idemBrand: unique symbol;

/** An idempotency key (ledger rows) or dedupe key (jobs), made by `idemKey` only. */
export type IdemKey = string & { readonly [idemBrand]: true };

/**
 * The kinds of keys, one per thing that may be repeated. A later area adds its kinds here (one
 * line each); a key is `<kind>:<id>:<id>…`, so keys of different kinds never collide.
 */
export type IdemKind =
  /** a message's charge: (account, smsId) */
  | 'msg'
  /** a failed message's refund: (message id) */
  | 'msg-refund'
  /** the carrier job of a message: (message id) */
  | 'carrier'
  /** invite bonus of the redeemer / of the inviter: (redeemer id) */
  | 'invite:redeemer'
  | 'invite:inviter'
  /** the demo accounts' welcome credit: (account) */
  | 'demo-balance'
  /** an operator's adjustment given a reference: (account, reference) */
  | 'operator'
  /** a paid top-up order's credit / its operator refund: (order id) */
  | 'pay'
  | 'pay-refund'
  /** a top-up's refund or dispute (payment_returns row): its debit and its reversal: (row id, 'debit' | 'reversal') */
  | 'pay-return'
  /** a number's rent: (number id, 'sub' | 'resub-<history id>' | 'renew-<payment date>' | 'change-<plan changes made before>') */
  | 'number-rent'
  /** a renewal try of a number: (number id, payment date, day of the try); the sweep: ('sweep', day) */
  | 'number-renew'
  /** an incoming call's charge: (account, carrier call id) */
  | 'call'
  /** a received code SMS's charge: (source:messageId) */
  | 'code'
  /** the expiry job of a code lock / the simulated app's send: (lock id) */
  | 'code-lock'
  | 'code-sim'
  /** a verification number's month of rent / its renewal job: (app, phone, period start ms) */
  | 'code-rent'
  | 'code-renew'
  /** an operator's refund of a code SMS: (smsId) */
  | 'code-refund'
  /** telling a code supplier again that an activation ended: (supplier, ref, attempt) */
  | 'code-supplier-finish'
  /** a real code supplier's n-th poll of a lock: (lock id, n) */
  | 'code-poll'
  /** a text sent from a verification number: its charge and carrier job (account, smsId) / its refund (smsId) */
  | 'code-send'
  | 'code-send-refund'
  /** a cell plan order of the embedded plans page: (account, the page's requestId) */
  | 'cell-order'
  /** a webhook delivery's job: (delivery id) */
  | 'webhook'
  /** a push notification's job: (subscription id, event key) */
  | 'push'
  /** one period of a recurring schedule: (schedule name, period start ms) */
  | 'schedule'
  /** a scheduled message's send job: (scheduled message id, version) */
  | 'sched';

/**
 * The one way to build a key: `idemKey('msg', accountId, smsId)` → `msg:12:abc`. Only the last part
 * may contain ':' (an smsId can), so two different tuples never give the same key.
 */
export function idemKey(kind: IdemKind, ...ids: readonly (string | number)[]): IdemKey {
  if (!ids.length) throw new Error(`idemKey(${kind}) needs at least one id`);
  ids.forEach((id, i) => {
    const s = String(id);
    if (s === '' || (i < ids.length - 1 && s.includes(':')))
      throw new Error(`idemKey(${kind}): bad id ${JSON.stringify(s)}`);
  });
  const key = `${kind}:${ids.join(':')}`;
  if (key.length > 200) throw new Error(`idemKey(${kind}) longer than 200 characters`);
  return key as IdemKey;
}
