import { performance } from 'node:perf_hooks';

/**
 * The server's start, phase by phase (issue 24 §5): each mark is the time since the process started
 * (performance.now(), in ms) at the end of a phase. server.ts logs them once it listens
 * ("started", `phases`), and bench/warm-start.ts reads that line.
 */
const marks: { phase: string; at: number }[] = [];

export const startup = {
  mark(phase: string): void {
    marks.push({ phase, at: Math.round(performance.now()) });
  },
  /** Each phase's end and length, in order. */
  phases(): { phase: string; at: number; ms: number }[] {
    return marks.map((m, i) => ({ ...m, ms: m.at - (i ? marks[i - 1]!.at : 0) }));
  },
};
