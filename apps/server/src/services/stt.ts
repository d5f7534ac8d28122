import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import type { Clock } from '../lib/clock';
import { SttFailedError, type SttPort, type SttRequest } from '../providers/stt/port';
import { sttRepo } from '../repositories/stt';

export interface SttCacheOptions {
  /** A claim older than this is a dead or stuck server's: another may take it over (ms). */
  staleMs: number;
  /** How often a server waiting for another's answer reads it again (ms). */
  waitPollMs: number;
}

/**
 * Speech-to-text with its results kept (issue 25): one provider call per recording and language,
 * across requests and servers. The recording is known by the SHA-256 of its bytes, so the voicemail
 * transcribed on arrival (`auto`) and the user's own request for it later are the same row. A
 * transcript or a "cannot be transcribed" answer is kept; a provider that was down is not (the next
 * request asks again). Two requests for the same recording and language at once — on one server or
 * several — make one call: the first claims the row in the database, the others wait for its answer
 * (and take the claim over if it goes stale: that server died).
 */
export function createCachedStt(deps: {
  db: Database;
  port: SttPort;
  clock: Clock;
  log: FastifyBaseLogger;
  options?: Partial<SttCacheOptions>;
  /** Waiting between reads (tests may pass their own). */
  sleep?: (ms: number) => Promise<void>;
}): SttPort {
  const { db, port, clock, log } = deps;
  const opts: SttCacheOptions = { staleMs: 15 * 60_000, waitPollMs: 500, ...deps.options };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  /** Requests of this process under way, by recording and language. */
  const inFlight = new Map<string, Promise<string>>();

  /** A kept answer, or undefined when none is kept (yet). */
  function answerOf(row: Awaited<ReturnType<typeof sttRepo.get>>): string | undefined {
    if (row?.status === 'done') return row.text ?? '';
    if (row?.status === 'failed')
      throw new SttFailedError(row.reason ?? 'the recording could not be transcribed');
    return undefined;
  }

  async function work(request: SttRequest, hash: string): Promise<string> {
    const { language } = request;
    for (;;) {
      const kept = answerOf(await sttRepo.get(db.q, hash, language));
      if (kept !== undefined) return kept;
      const now = new Date(clock.now());
      const claimed = await sttRepo.claim(db.q, {
        hash,
        language,
        provider: port.name,
        now,
        staleBefore: new Date(now.getTime() - opts.staleMs),
      });
      if (claimed) return ask(request, hash, now);
      // another server is asking the provider: wait for its answer (or for its claim to go stale)
      const row = await sttRepo.get(db.q, hash, language);
      const answer = answerOf(row);
      if (answer !== undefined) return answer;
      if (!row) continue; // it gave up just now: claim it
      await sleep(opts.waitPollMs);
    }
  }

  async function ask(request: SttRequest, hash: string, claimedAt: Date): Promise<string> {
    const key = { hash, language: request.language, claimedAt };
    try {
      const text = await port.transcribe(request);
      await sttRepo.finish(db.q, { ...key, status: 'done', text, now: new Date(clock.now()) });
      return text;
    } catch (err) {
      if (err instanceof SttFailedError) {
        await sttRepo.finish(db.q, {
          ...key,
          status: 'failed',
          reason: err.message,
          now: new Date(clock.now()),
        });
      } else {
        // unavailable, an unsupported language, or a bug: nothing is kept; the next request asks again
        await sttRepo.release(db.q, key).catch((e: unknown) => {
          log.warn({ err: e }, 'a speech-to-text claim could not be released; it goes stale');
        });
      }
      throw err;
    }
  }

  return {
    name: port.name,
    async transcribe(request: SttRequest): Promise<string> {
      const hash = createHash('sha256').update(request.bytes).digest('hex');
      const key = `${hash}:${request.language}`;
      const running = inFlight.get(key);
      if (running) return running;
      const p = work(request, hash).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
      return p;
    },
  };
}
