/** Audio to transcribe: a voice message's bytes as stored in the media store. */
export interface SttRequest {
  bytes: Uint8Array;
  mime: string;
  /** `auto` or a BCP 47 tag (`en-US`, `cmn-Hans-CN`). */
  language: string;
}

/**
 * Speech-to-text. `transcribe` resolves with the transcript, or throws `SttUnavailableError` (no
 * provider, or the provider is down: 600000) or `SttFailedError` (this recording could not be
 * transcribed: 600002).
 */
export interface SttPort {
  readonly name: string;
  transcribe(request: SttRequest): Promise<string>;
}

export class SttUnavailableError extends Error {
  constructor(message = 'speech-to-text is not available') {
    super(message);
    this.name = 'SttUnavailableError';
  }
}

export class SttFailedError extends Error {
  constructor(message = 'the recording could not be transcribed') {
    super(message);
    this.name = 'SttFailedError';
  }
}

/** The provider does not transcribe this language (600002, with a message saying so; nothing is kept). */
export class SttUnsupportedLanguageError extends Error {
  constructor(readonly language: string) {
    super(`speech-to-text does not transcribe ${language}`);
    this.name = 'SttUnsupportedLanguageError';
  }
}
