/**
 * The code-number supply port (issue 12): where the numbers that receive app codes come from. The
 * built-in simulator (the default) offers the platform pool (table code_pool) and plays the apps: a
 * simulated app sends its code to a locked number a few seconds after the lock, in its real format
 * (or, like a real app now and then, never). A real supplier (SMS-Activate-compatible protocol)
 * hands out a number per activation and is asked for the SMS it received.
 */
export interface CodeSupplyPort {
  readonly name: string;

  /**
   * A number of the pool was locked for an app. A real supplier is told (activation); the simulator
   * answers what its app will send and when (null: this time the app sends nothing, the lock times
   * out, as with a real app that fails).
   */
  locked(p: { lockId: number; phone: string; app: string; country: string; lang: 'en' | 'zh' }): Promise<{
    ref: string | null;
    send: { afterMs: number; sender: string; text: string } | null;
  }>;

  /** The lock ended: 'done' (a code arrived) or 'cancel' (none, or given back). Never throws. */
  finished(p: { ref: string | null; outcome: 'done' | 'cancel' }): Promise<void>;
}
