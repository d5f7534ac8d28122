/*
 * What each provider kind declares about its configuration (issue 18 §1; docs/decisions.md,
 * "Production is fail-closed"): the variable that picks its adapter, the simulator's value, its real
 * adapters with what each needs, and whether it may be switched off and what users meet then. Each
 * kind's declaration sits beside its adapters (`providers/<kind>/requirements.ts`), and
 * `providers/requirements.ts` reads them all: simulators are the default outside production, and a
 * production start that would run one, or lacks a real adapter's variable, is refused with one
 * message naming every variable. A new adapter is one entry of its kind's `real` list.
 *
 * Types only, with no import: env.ts reads the declarations, so they cannot import env.ts.
 */

/** The parsed environment as the declarations read it (env.ts's `Env`, by variable name). */
export type EnvView = Readonly<Record<string, unknown>>;

/** One environment variable an adapter needs. Unset or empty counts as missing. */
export interface Need {
  /** The variable, as env.ts names it. */
  name: string;
  /** What it does, for the operator: the refusal and the README print it. */
  does: string;
}

/** A real adapter of a kind: the selector's value that picks it and what it needs. */
export interface RealAdapter {
  /** The selector's value, e.g. `twilio` for `CARRIER=twilio`. */
  value: string;
  /** Its variables. */
  needs: readonly Need[];
  /** A word on choosing it, printed after the selector (e.g. "implied by SMTP_URL"). */
  note?: string;
  /** Further conditions on the whole environment: per unmet one, what it needs and why (after "needs:"). */
  check?: (env: EnvView) => string[];
}

export interface ProviderKind {
  /** Its name in messages, e.g. `SMS/MMS carrier`. */
  title: string;
  /** The variable that picks the adapter, e.g. `CARRIER`. */
  selector: string;
  /** What the kind does for the product, in a few words. */
  does: string;
  /** The built-in simulator's value: the default in development, tests and demos (DEMO_MODE=1). */
  simulator: string;
  /** The selector's value when other variables say it (MAIL=smtp when SMTP_URL is set). */
  implied?: (env: EnvView) => string | undefined;
  /** Real adapters, in the order the refusal offers them. */
  real: readonly RealAdapter[];
  /**
   * The value that switches the kind off and what users meet then. Absent: the product cannot work
   * without it, so a production start needs one of the real adapters.
   */
  off?: { value: string; effect: string };
  /**
   * A payment-method group: the getPaymentMethods keys it serves. A group left unset in production
   * is simply not offered (its methods answer 200044); the other kinds must be chosen explicitly.
   */
  methods?: readonly string[];
}
