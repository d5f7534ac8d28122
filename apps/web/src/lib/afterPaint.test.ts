import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterPaint } from './afterPaint';

let frames: FrameRequestCallback[] = [];
let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  visibility = 'visible';
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  vi.runOnlyPendingTimers();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The browser's next frame (after the tasks queued so far): its animation callbacks, then the paint. */
function frame() {
  vi.advanceTimersByTime(0);
  frames.splice(0).forEach((cb) => cb(performance.now()));
}

describe('afterPaint', () => {
  it('runs after the next frame, in the order asked, all in one task', () => {
    const ran: string[] = [];
    afterPaint(() => ran.push('a'));
    afterPaint(() => ran.push('b'));
    expect(frames).toEqual([]); // not asked for from the task that made the change
    vi.advanceTimersByTime(0);
    expect(frames.length).toBe(1);
    expect(ran).toEqual([]); // no frame yet
    frame();
    expect(ran).toEqual([]); // the frame's paint comes first
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['a', 'b']);
    expect(frames).toEqual([]);
  });

  it('asks for one frame for a burst, and again for what comes after it ran', () => {
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) afterPaint(() => ran.push(i));
    vi.advanceTimersByTime(0);
    expect(frames.length).toBe(1);
    frame();
    vi.advanceTimersByTime(0);
    afterPaint(() => ran.push(5));
    vi.advanceTimersByTime(0);
    expect(frames.length).toBe(1);
    frame();
    vi.advanceTimersByTime(0);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('runs in the next task in a hidden page (no frames come), and at the latest 100 ms later if hidden meanwhile', () => {
    const ran: string[] = [];
    visibility = 'hidden';
    afterPaint(() => ran.push('hidden'));
    expect(frames).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['hidden']);

    visibility = 'visible';
    afterPaint(() => ran.push('then hidden'));
    visibility = 'hidden'; // the frame never comes
    vi.advanceTimersByTime(99);
    frames.length = 0;
    expect(ran).toEqual(['hidden']);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['hidden', 'then hidden']);
    // the frame that comes much later runs nothing twice
    frame();
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['hidden', 'then hidden']);
  });

  it("does not run a later burst early on an earlier one's fallback", () => {
    const ran: string[] = [];
    afterPaint(() => ran.push('first'));
    frame();
    vi.advanceTimersByTime(50);
    afterPaint(() => ran.push('second'));
    vi.advanceTimersByTime(50); // the first run's fallback fires; the second waits for its frame
    expect(ran).toEqual(['first']);
    frame();
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['first', 'second']);
  });
});
