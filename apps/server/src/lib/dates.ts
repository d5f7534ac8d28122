/**
 * The one date model of periodic charges and month tabs (issue 19): a calendar day is an ISO date
 * `YYYY-MM-DD` in UTC, an instant is a Date (epoch milliseconds in the database's timestamptz), a
 * month is `YYYY-MM` in UTC. Months are calendar months: 31 January + 1 month is the last day of
 * February, not 3 March.
 */

/** A day in milliseconds (UTC days: no daylight saving in the server's arithmetic). */
export const DAY_MS = 86_400_000;

/** An hour in milliseconds. */
export const HOUR_MS = 3_600_000;

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export const isoDay = (d: Date | number): string => new Date(d).toISOString().slice(0, 10);

/** The ISO date `n` months after `iso` (clamped to the last day of a shorter month). */
export function addMonthsIso(iso: string, n: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1 + n, d));
  if (t.getUTCDate() !== d) t.setUTCDate(0);
  return t.toISOString().slice(0, 10);
}

/** The ISO date `n` days after `iso`. */
export const addDaysIso = (iso: string, n: number): string =>
  isoDay(Date.parse(`${iso}T00:00:00Z`) + n * DAY_MS);

/** The instant `n` calendar months after `at`, at the same time of day (UTC). */
export const addMonths = (at: Date, n: number): Date =>
  new Date(`${addMonthsIso(isoDay(at), n)}T${at.toISOString().slice(11)}`);

/** Midnight UTC starting an ISO date, in epoch milliseconds. */
export const startOfIso = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);

/** A UTC month `YYYY-MM` as the instants [from, to). */
export function monthRange(ym: string): { from: Date; to: Date } {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}
