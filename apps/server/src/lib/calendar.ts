/** One day in milliseconds (UTC days: no daylight saving in the server's arithmetic). */
export const dayMs = 86_400_000;

/** One hour in milliseconds. */
export const hourMs = 3_600_000;

/** A month tab (YYYY-MM, UTC) as [from, to): its first instant and the next month's. */
export function monthRange(ym: string): { from: Date; to: Date } {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}
