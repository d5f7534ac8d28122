import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import { simulatorsAllowed } from '../requirements';
import { NoSpeechToText } from './none';
import { OpenAiCompatibleStt } from './openai';
import type { SttPort } from './port';
import { SimulatedSpeechToText } from './simulator';

/**
 * The speech-to-text STT names: `simulator` (only where simulators may run), `none` (600000; also
 * production with it unset, which server.ts refuses to start), or `openai`, an OpenAI-compatible
 * transcription endpoint (OpenAI, or a self-hosted Whisper server at STT_API_URL). A missing setting
 * stops the start with its name.
 */
export function createStt(env: Env, log?: FastifyBaseLogger): SttPort {
  if (env.STT === 'simulator' && simulatorsAllowed(env)) return new SimulatedSpeechToText();
  if (env.STT !== 'openai') return new NoSpeechToText();
  if (!env.STT_API_KEY) throw new Error('STT=openai needs STT_API_KEY');
  return new OpenAiCompatibleStt(
    {
      baseURL: env.STT_API_URL,
      apiKey: env.STT_API_KEY,
      model: env.STT_MODEL,
      timeoutMs: env.STT_TIMEOUT_MS,
      maxRetries: env.STT_MAX_RETRIES,
      maxUploadBytes: env.STT_MAX_UPLOAD_BYTES,
      chunkSeconds: env.STT_CHUNK_SECONDS,
    },
    log,
  );
}
