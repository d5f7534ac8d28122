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

  /** A real supplier: a fresh number for an app in a country. Throws `CodeSupplyError`. */
  acquire?(p: { app: string; country: string }): Promise<{ ref: string; phone: string }>;

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
  ): Promise<{ status: 'wait' } | { status: 'code'; code: string; text: string } | { status: 'cancelled' }>;

  /** How often `poll` is asked while a lock lives (ms). */
  readonly pollEveryMs?: number;

  /** A real supplier's price and stock of an app's numbers in a country (null: not offered). */
  prices?(p: { app: string; country: string }): Promise<{ cost: number; count: number } | null>;

  /** The lock ended: 'done' (a code arrived) or 'cancel' (none, or given back). Never throws. */
  finished(p: { ref: string | null; outcome: 'done' | 'cancel' }): Promise<void>;
}

/**
 * A supplier's refusal, in our words: `no_numbers` (none free now: 500000 for the user), `not_offered`
 * (the app or country is not mapped or not sold), `refused` (bad key, no balance at the supplier, a
 * banned account: the operator's problem, logged), `unavailable` (network, 5xx: try again later).
 */
export class CodeSupplyError extends Error {
  constructor(
    readonly kind: 'no_numbers' | 'not_offered' | 'refused' | 'unavailable',
    message: string,
    /** The supplier's own answer. */
    readonly answer?: string,
  ) {
    super(message);
    this.name = 'CodeSupplyError';
  }
}
