import type { Minor } from '@numa/contract';

/**
 * The code-number supply port (issue 12): where the numbers that receive app codes come from. The
 * built-in simulator (the default) offers the platform pool (table code_pool) and plays the apps: a
 * simulated app sends its code to a locked number a few seconds after the lock, in its real format
 * (or, like a real app now and then, never). A real supplier (SMS-Activate-compatible protocol,
 * `smsActivate.ts`) hands out a number per activation (`acquire`) and is asked for the SMS it
 * received (`poll`, run by the jobs queue while the lock lives).
 *
 * Numbers of the pool whose supplier is `carrier` are our own numbers at the carrier: no supplier is
 * told about their locks; their code SMS come in through the carrier's inbound side.
 */
export interface CodeSupplyPort {
  readonly name: string;

  /**
   * true: the supplier hands out its own numbers, one per activation (`acquire`); a fresh number is
   * never picked from the pool. false: the pool rows of this supplier are its numbers.
   */
  readonly handsOutNumbers: boolean;

  /**
   * A real supplier: a fresh number for an app in a country, bought for no more than the user's fee
   * allows (`fee`: the price of one code the user was quoted; the adapter sends its supplier the
   * most it may charge, from its price rates). Resolves with what the supplier charged (`cost`, in
   * its currency) and the limit sent (`maxPrice`), so the caller can refuse a number sold above it.
   * A composite of several suppliers says which one served (`supplier`). Throws `CodeSupplyError`.
   */
  acquire?(p: { app: string; country: string; fee?: QuotedFee }): Promise<Acquired>;

  /**
   * A number of the pool was locked for an app. A real supplier is told (activation: a number
   * received on before is asked for another SMS on its last activation, `previousRef`); the
   * simulator answers what its app will send and when (null: this time the app sends nothing, the
   * lock times out, as with a real app that fails). Throws when the supplier refuses.
   */
  locked(p: {
    lockId: number;
    phone: string;
    app: string;
    country: string;
    lang: 'en' | 'zh';
    previousRef?: string | null;
    /** The lock's supplier (a composite routes by it). */
    supplier?: string;
  }): Promise<{
    ref: string | null;
    send: { afterMs: number; sender: string; text: string } | null;
  }>;

  /**
   * A real supplier: what its activation received. `code` with the SMS text when it has one; `wait`
   * while none came; `cancelled` when the supplier ended the activation. Throws `CodeSupplyError`.
   */
  poll?(
    ref: string,
    supplier?: string,
  ): Promise<{ status: 'wait' } | { status: 'code'; code: string; text: string } | { status: 'cancelled' }>;

  /** How often `poll` is asked while a lock lives (ms). */
  readonly pollEveryMs?: number;

  /** A real supplier's price and stock of an app's numbers in a country (null: not offered). */
  prices?(p: { app: string; country: string }): Promise<{ cost: number; count: number } | null>;

  /**
   * The lock ended: 'done' (a code arrived), 'cancel' (none came, or it was given back) or 'ban' (given
   * back for another number: the app would not take this one). A real supplier that refuses for now
   * (SMS-Activate's EARLY_CANCEL_DENIED in an activation's first two minutes) resolves with when to
   * ask again; the caller's jobs queue asks then. Other refusals throw `CodeSupplyError`.
   */
  finished(p: {
    ref: string | null;
    outcome: 'done' | 'cancel' | 'ban';
    supplier?: string;
  }): Promise<void | { retryAfterMs: number }>;

  /** Whether a lock or pool row of this supplier name is this port's (a composite serves several). */
  serves?(supplier: string): boolean;
}

/** The price of one code the user was quoted, in the brand's rate currency (ten-thousandths). */
export interface QuotedFee {
  amount: Minor;
  currency: 'usd' | 'cny';
}

/** A number bought from a supplier. */
export interface Acquired {
  ref: string;
  phone: string;
  /** Which supplier (a composite's member) sold it. */
  supplier?: string;
  /** What the supplier charged, in its currency, when it says. */
  cost?: number;
  /** The most we allowed it to charge (its currency, decimal), when a fee was given. */
  maxPrice?: string;
}

/**
 * A supplier's answer other than success, in our words:
 * - `no_numbers`: none free now for this app and country (500000 for the user; the next supplier is tried);
 * - `price`: none at or below the price the user's fee allows;
 * - `not_offered`: the app or country is not mapped, or not sold by this supplier;
 * - `config`: our request is wrong for this supplier (a service or country code, a profile setting):
 *   the operator must fix the configuration;
 * - `refused`: the account cannot buy (bad key, no balance, banned, blocked): the operator must act;
 * - `unavailable`: network, timeouts, 5xx, the supplier's own database errors: try again later.
 * `reason` is the supplier's own word for it (`NO_BALANCE`, `no free phones`), `action` what the
 * operator should do, `pauseUntil` when an account-level refusal ends (a ban's end time).
 */
export type SupplyErrorKind = 'no_numbers' | 'price' | 'not_offered' | 'config' | 'refused' | 'unavailable';

export class CodeSupplyError extends Error {
  readonly reason: string;
  readonly action: string | undefined;
  readonly pauseUntil: number | undefined;
  constructor(
    readonly kind: SupplyErrorKind,
    message: string,
    /** The supplier's own answer. */
    readonly answer?: string,
    info: { reason?: string; action?: string; pauseUntil?: number } = {},
  ) {
    super(message);
    this.name = 'CodeSupplyError';
    this.reason = info.reason ?? answer?.split(':')[0]?.slice(0, 60) ?? kind;
    this.action = info.action;
    this.pauseUntil = info.pauseUntil;
  }

  /** Trying again later (or elsewhere) may work; the others need the operator or never work. */
  get temporary(): boolean {
    return this.kind === 'no_numbers' || this.kind === 'price' || this.kind === 'unavailable';
  }

  /** The account itself cannot buy now: skip this supplier for a while. */
  get accountLevel(): boolean {
    return this.kind === 'refused';
  }
}
