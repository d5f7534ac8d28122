import type { FastifyBaseLogger } from 'fastify';
import type OpenAI from 'openai';
import { lazy } from '../../lib/lazy';
import { prepareAudio, type AudioPart } from './audio';
import { providerLanguage } from './languages';
import {
  SttFailedError,
  SttUnavailableError,
  SttUnsupportedLanguageError,
  type SttPort,
  type SttRequest,
} from './port';

export interface OpenAiSttOptions {
  /** The API's base, `https://api.openai.com/v1` or any OpenAI-compatible server's `…/v1`. */
  baseURL: string;
  apiKey: string;
  /** `whisper-1`, `gpt-4o-transcribe`, `gpt-4o-mini-transcribe`, or the server's model name. */
  model: string;
  /** One request's time limit (ms). */
  timeoutMs: number;
  /** The SDK's own retries of 408/409/429/5xx and broken connections, with its backoff. */
  maxRetries: number;
  /** The largest upload the provider takes (bytes). */
  maxUploadBytes: number;
  /** The longest part of a recording sent in one request (seconds). */
  chunkSeconds: number;
}

/** The end of what was heard so far, given as the next part's prompt (OpenAI's advice for long audio). */
const tail = (text: string) => (text.length > 200 ? text.slice(-200) : text);

/** Joins the parts' transcripts: a space between words, none between CJK characters. */
export function joinTranscripts(parts: string[]): string {
  let out = '';
  for (const p of parts.map((s) => s.trim()).filter(Boolean)) {
    const cjk =
      /[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]$/u.test(out) &&
      /^[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/u.test(p);
    out = out && !cjk ? `${out} ${p}` : out + p;
  }
  return out;
}

/**
 * Speech-to-text through an OpenAI-compatible transcription endpoint (`POST …/audio/transcriptions`,
 * multipart: file, model, language, prompt, response_format=json → `{"text": …}`), with OpenAI's
 * maintained SDK. The same adapter serves OpenAI itself and the servers that speak its API
 * (whisper.cpp's server, faster-whisper / speaches, LocalAI, Groq, Azure OpenAI's compatible path):
 * STT_API_URL points at them. Locales map to the provider's ISO 639-1 codes (`languages.ts`),
 * recordings are converted and cut as `audio.ts` says, and the provider's answers map to ours:
 * unsupported language → `SttUnsupportedLanguageError`; audio it cannot hear (too short, bad
 * format, no speech) → `SttFailedError` (600002); key, quota, rate limit, 5xx, timeouts, broken
 * connections → `SttUnavailableError` (600000, the spec's "temporarily unavailable").
 */
export class OpenAiCompatibleStt implements SttPort {
  readonly name = 'openai';
  /** The SDK, loaded when the adapter is made (lib/lazy.ts), not at the server's start. */
  private readonly sdk = lazy.openai();
  private readonly client: OpenAI;

  constructor(
    private readonly opts: OpenAiSttOptions,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.client = new this.sdk.OpenAI({
      apiKey: opts.apiKey,
      baseURL: opts.baseURL,
      timeout: opts.timeoutMs,
      maxRetries: opts.maxRetries,
    });
  }

  async transcribe(request: SttRequest): Promise<string> {
    const language = providerLanguage(request.language);
    if (!language) throw new SttUnsupportedLanguageError(request.language);
    const parts = await prepareAudio(request.bytes, {
      maxBytes: this.opts.maxUploadBytes,
      maxSeconds: this.opts.chunkSeconds,
    });
    const heard: string[] = [];
    for (const part of parts) {
      const prompt = [language.prompt, tail(joinTranscripts(heard))].filter(Boolean).join(' ');
      heard.push(await this.part(part, language.code, prompt, request.language));
    }
    const text = joinTranscripts(heard);
    if (!text) throw new SttFailedError('the provider heard no speech in the recording');
    return text;
  }

  /** One request: a part's transcript. */
  private async part(part: AudioPart, language: string | null, prompt: string, tag: string) {
    try {
      const res = await this.client.audio.transcriptions.create({
        file: await this.sdk.toFile(part.bytes, part.fileName, { type: part.mime }),
        model: this.opts.model,
        response_format: 'json',
        ...(language ? { language } : {}),
        ...(prompt ? { prompt } : {}),
      });
      if (typeof res?.text !== 'string')
        throw new SttUnavailableError('the provider answered without a transcript');
      return res.text;
    } catch (err) {
      throw this.mapError(err, tag);
    }
  }

  /** The provider's answer in our words (logged for the operator where the operator must act). */
  private mapError(err: unknown, tag: string): Error {
    if (err instanceof SttUnavailableError || err instanceof SttFailedError) return err;
    if (err instanceof this.sdk.APIConnectionTimeoutError) {
      this.log?.warn({ model: this.opts.model }, 'speech-to-text provider timed out');
      return new SttUnavailableError('the speech-to-text provider did not answer in time');
    }
    if (err instanceof this.sdk.APIConnectionError) {
      this.log?.warn({ err: err.message }, 'speech-to-text provider unreachable');
      return new SttUnavailableError('the speech-to-text provider cannot be reached');
    }
    if (!(err instanceof this.sdk.APIError)) return err as Error;
    const { status, code, param, message } = err;
    const info = { status, code, param, message: message?.slice(0, 300) };
    if (status === 400 || status === 422) {
      if (
        code === 'invalid_language_format' ||
        code === 'unsupported_language' ||
        param === 'language' ||
        /language/i.test(message ?? '')
      )
        return new SttUnsupportedLanguageError(tag);
      // audio_too_short, an unreadable or unsupported file: this recording cannot be transcribed
      this.log?.info(info, 'the speech-to-text provider refused the recording');
      return new SttFailedError(`the provider refused the recording: ${code ?? message ?? status}`);
    }
    if (status === 413) return new SttFailedError('the recording is over the provider’s size limit');
    // 401/403 (key), 404 (model), 429 (rate or quota), 5xx: the operator's or the provider's problem
    this.log?.error(info, 'the speech-to-text provider refused the call');
    return new SttUnavailableError(`the speech-to-text provider answered ${status ?? 'an error'}`);
  }
}
