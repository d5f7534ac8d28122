/**
 * Runs `fn` once the browser has painted what the current task changed: in a task after the next
 * frame (a timer set from inside the frame's animation callback runs after that frame's paint; the
 * callback is asked for from the next task, so at the latest it is the frame after). For
 * what need not be on screen in the same frame as the change that caused it (issue 24 §1: a text
 * arriving in the open conversation paints first; the chat list's row and the unread counts follow).
 *
 * Callbacks run in the order they were given, all in one task. A page that shows no frames (a hidden
 * tab, where animation callbacks do not run) runs them in the next task instead; a page hidden after
 * the ask runs them at the latest `fallbackMs` later.
 */
const fallbackMs = 100;

let queue: (() => void)[] = [];
/** The scheduled run, or 0: a timer of an earlier run (its fallback) does not run a later burst early. */
let scheduled = 0;
let runs = 0;

function flush(run: number) {
  if (scheduled !== run) return;
  scheduled = 0;
  const now = queue;
  queue = [];
  for (const fn of now) fn();
}

export function afterPaint(fn: () => void): void {
  queue.push(fn);
  if (scheduled) return;
  const run = (scheduled = ++runs);
  const framed = typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible';
  if (!framed) {
    setTimeout(() => flush(run), 0);
    return;
  }
  // the frame is asked for from the next task, not this one: asking here cost 0.3–0.5 ms of the very
  // task that is painting the change (Chromium requests the frame from its compositor), and the
  // change has asked for that frame already
  setTimeout(() => requestAnimationFrame(() => setTimeout(() => flush(run), 0)), 0);
  setTimeout(() => flush(run), fallbackMs);
}
