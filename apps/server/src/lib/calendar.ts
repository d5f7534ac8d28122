/** One day in milliseconds (UTC days: no daylight saving in the server's arithmetic). */
export const dayMs = 86_400_000;

/** One hour in milliseconds. */
export const hourMs = 3_600_000;
