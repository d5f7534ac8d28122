import { solveChallenge, solveChallengeWorkers } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { PowChallenge } from '@numa/contract';

/**
 * Works out a captcha drawing's proof-of-work challenge (contract auth.ts: altcha-lib, SHA-256) and
 * gives the contract's `pow` payload: base64 of `{ challenge, solution }`. Runs in Web Workers (two,
 * or as many cores as the machine has up to four) while the person reads the picture; where workers
 * cannot start (tests in jsdom) it runs here. Resolves null when aborted.
 */
export async function solvePow(challenge: PowChallenge, signal?: AbortSignal): Promise<string | null> {
  const controller = new AbortController();
  signal?.addEventListener('abort', () => controller.abort());
  const timeout = 120_000;
  const solution =
    typeof Worker === 'undefined'
      ? await solveChallenge({ challenge, deriveKey, controller, timeout })
      : await solveChallengeWorkers({
          challenge,
          concurrency: Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2)),
          controller,
          timeout,
          createWorker: () => new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module' }),
        });
  if (!solution || controller.signal.aborted) return null;
  return btoa(JSON.stringify({ challenge, solution }));
}
