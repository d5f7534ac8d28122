/**
 * Where the server's time comes from (deps.clock). Rules that depend on time (jobs, schedules, and
 * what later areas build on them: renewals, expiries) read it here, so tests move it instead of
 * sleeping.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that stands still until moved (tests). */
export class ManualClock implements Clock {
  constructor(private t = Date.now()) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
  set(ms: number) {
    this.t = ms;
  }
}
